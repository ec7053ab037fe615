"""The commands of ``credence`` loaded when they run: a command's module (and the graph
client, embedder, reasoner or API it imports) is imported only when that command is invoked or
its own help is asked for, so ``credence --help`` and each command start without the others."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

import typer
from typer.core import TyperCommand, TyperGroup

if TYPE_CHECKING:
    # typer (0.29) runs on its own copy of click; its classes are typed with these.
    from typer._click import Command, Context, HelpFormatter


@dataclass(frozen=True)
class LazyCommand:
    """A command (or command group) of ``credence``: its name, where it is
    (``module:attribute``: a ``typer.Typer`` group, a command function, or a function without
    arguments that returns a group) and the first paragraph of its help as one line (a line
    break in it would be printed as it is), which ``credence --help`` lists without importing
    it (tests/unit/cli/test_lazy_commands.py checks it against the command's own help)."""

    name: str
    target: str
    summary: str
    builds_group: bool = False


class LazyGroup(TyperGroup):
    """A typer group whose ``lazy_commands`` are imported on first use. Listing them (the
    group's help) shows their summaries; running one, or its help, imports its module."""

    lazy_commands: ClassVar[tuple[LazyCommand, ...]] = ()
    _listing: bool = False

    def list_commands(self, ctx: Context) -> list[str]:
        return [*super().list_commands(ctx), *(entry.name for entry in self.lazy_commands)]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        entry = next((entry for entry in self.lazy_commands if entry.name == cmd_name), None)
        if entry is None:
            return super().get_command(ctx, cmd_name)
        if self._listing:
            return TyperCommand(entry.name, help=entry.summary)
        return loaded_command(entry)

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


@cache
def loaded_command(entry: LazyCommand) -> Command:
    """The click command typer makes of ``entry``'s target, as ``add_typer`` or ``command``
    under ``entry.name`` would have made it; imported and built once per process."""
    module_name, _, attribute = entry.target.partition(":")
    target: Any = getattr(importlib.import_module(module_name), attribute)
    if entry.builds_group:
        target = target()
    holder = typer.Typer()
    holder.callback()(_nothing)
    if isinstance(target, typer.Typer):
        holder.add_typer(target, name=entry.name)
    else:
        command: Callable[..., Any] = target
        holder.command(entry.name)(command)
    return typer.main.get_group(holder).commands[entry.name]


def _nothing() -> None:
    """The holder's callback: with it typer makes a group of one command."""

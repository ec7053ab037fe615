"""`credence chat` driven through a pseudo-terminal, as a person would use it: the CLI chat tests
(tests/integration/cli/test_cli_chat.py) and the recording of docs/chat-session.md
(docs/chat_session.py) both type into it and read what it shows."""

from __future__ import annotations

import codecs
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

# The prompt; its trailing space may reach the terminal after the rest (readline).
PROMPT = "you›"
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>()][0-9A-B]?")
TURN_TIMEOUT_S = 90.0


def credence_command() -> list[str]:
    script = Path(sys.executable).parent / "credence"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from app.cli.main import main; main()"]


def _controlling_terminal() -> None:
    """In the child: a session of its own with the pty as its controlling terminal, so that
    Ctrl-C and Ctrl-D typed into the master behave as on a real terminal."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A process on the slave side of a pty of ``columns`` × ``rows``; reads the master side
    with timeouts. ``env`` is the process's environment, to which the terminal adds its size and
    kind."""

    def __init__(
        self, args: list[str], env: dict[str, str], columns: int = 200, rows: int = 60
    ) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        terminal_env = {
            "COLUMNS": str(columns),
            "LINES": str(rows),
            "TERM": "xterm-256color",
            "PYTHONIOENCODING": "utf-8",
        }
        self.process = subprocess.Popen(
            args,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**env, **terminal_env},
            close_fds=True,
            preexec_fn=_controlling_terminal,
        )
        os.close(slave)
        self.master = master
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.raw = ""
        self.position = 0

    @property
    def text(self) -> str:
        """Everything shown so far, without colours and carriage returns."""
        return ANSI.sub("", self.raw).replace("\r", "")

    def _read(self, wait_s: float) -> bool:
        """Reads what is there; False when the process closed the terminal."""
        ready, _, _ = select.select([self.master], [], [], wait_s)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the slave side closed (the process ended)
            return False
        if not data:
            return False
        self.raw += self.decoder.decode(data)
        return True

    def expect(self, pattern: str, timeout_s: float = TURN_TIMEOUT_S) -> str:
        """Waits for ``pattern`` after what earlier calls consumed; returns the text up to and
        including the match and consumes it."""
        deadline = time.monotonic() + timeout_s
        compiled = re.compile(pattern)
        while True:
            text = self.text
            match = compiled.search(text, self.position)
            if match:
                segment = text[self.position : match.end()]
                self.position = match.end()
                return segment
            open_ = self._read(min(0.5, max(0.0, deadline - time.monotonic())))
            if not open_ and compiled.search(self.text, self.position) is None:
                raise AssertionError(
                    f"the REPL ended (rc {self.process.poll()}) before {pattern!r}; "
                    f"its output:\n{self.text[-4000:]}"
                )
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"no {pattern!r} within {timeout_s} s; the output:\n{self.text[-4000:]}"
                )

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def command(self, line: str, timeout_s: float = TURN_TIMEOUT_S) -> str:
        """Sends a line and returns what was printed until the next prompt."""
        self.send(line)
        return self.expect(re.escape(PROMPT), timeout_s)

    def wait(self, timeout_s: float = 60.0) -> int:
        """Waits for the process to end, reading what it prints; its exit status."""
        deadline = time.monotonic() + timeout_s
        while self.process.poll() is None and time.monotonic() < deadline:
            self._read(0.2)
        while self._read(0.2) and select.select([self.master], [], [], 0.2)[0]:
            pass  # what it printed last
        return self.process.wait(timeout=1)

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.master)

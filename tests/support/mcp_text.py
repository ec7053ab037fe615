"""The text of an MCP answer's content, which MCP types as any kind of content."""

from __future__ import annotations

from mcp.types import TextContent, TextResourceContents


def text_of(content: object) -> str:
    """The text of a tool answer's, a resource's or a prompt message's content, which is text."""
    assert isinstance(content, TextContent | TextResourceContents), content
    return content.text

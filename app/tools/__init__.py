"""Credence as an MCP client: servers connected to an agent, their tools as executors."""

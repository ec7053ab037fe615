"""Credence over the Model Context Protocol (the official ``mcp`` SDK): the same services as
the REST routes, as tools, resources and prompts, over stdio (``credence mcp``) or streamable
HTTP (the API's ``/mcp``)."""

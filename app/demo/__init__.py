"""The lived-in demo agent (``credence demo``, docs/demo.md).

An agent with a history, built by running scripted conversations through the real cognitive
loop (the services the API and the CLI use), offline, on a clock the demo moves itself: a
month-end close with a ledger connected, a belief revised after resistance, contradictions,
people of different authority, a pack loaded after birth, a research investigation and a
session closed with a rule learned by reflection.

``DEMO_AGENT_NAME`` is the name it is built under (and looked up by: the Browser guide).
"""

from __future__ import annotations

DEMO_AGENT_NAME = "Credence demo"

__all__ = ["DEMO_AGENT_NAME"]

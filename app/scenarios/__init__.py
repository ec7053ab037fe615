"""Scripted conversations run through the real loop (docs/scenarios.md): the driver both the demo
(app/demo/) and the validation scenarios (``seeds/scenarios/``, ``credence scenario``) play their
turns on, the scenario file's model, and the runner that checks each expected decision."""

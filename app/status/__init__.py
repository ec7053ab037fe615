"""An agent's status (seed 003's ``/s3-status``): what it is doing, its sessions and episodes,
its last reflection, tokens and calls per session, dissatisfaction, open conflicts, pending
approvals and the scheduler's last runs (docs/loop.md §15)."""

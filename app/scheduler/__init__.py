"""The scheduler: background work that runs between turns (docs/loop.md §14), claimed in the
graph with a lease so that one process runs each job."""

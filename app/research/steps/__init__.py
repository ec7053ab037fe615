"""The steps of an investigation: each prepares its writes outside a transaction (searches,
reasoner calls) and returns them as a :class:`~app.research.services.StepPlan` that the runner
commits with the step's ``ResearchStep`` node."""

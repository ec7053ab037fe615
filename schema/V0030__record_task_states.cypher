// Tasks take seed 000's states (planning, executing, awaiting_input, blocked, completed, with
// cancelled and evicted for work not done) and keep each transition (history_states,
// history_at, history_causes: parallel lists, docs/memory.md §4). A task stored before this
// migration was `active`: it becomes `planning`, with that one transition at its start. Every
// task gets the lists its state implies. Idempotent.
MATCH (t:Task) WHERE t.state = 'active' AND t.history_states IS NULL
SET t.state = 'planning';
MATCH (t:Task) WHERE t.history_states IS NULL
SET t.history_states = [t.state],
    t.history_at = [coalesce(t.ended_at, t.started_at)],
    t.history_causes = ['recorded before task states kept their transitions'];

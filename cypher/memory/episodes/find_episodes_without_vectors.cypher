// Which of the given episodes still have no vector (their vectors were deferred past their turn's
// transaction: app/memory/episodes.py embed_deferred_episodes), with when they happened.
// Params: $agent_id (string), $ids (list of episode ids).
// Returns: id (string), occurred_at (datetime), one row per episode found without a vector.
UNWIND $ids AS episode_id
MATCH (e:Episode {agent_id: $agent_id, id: episode_id})
WHERE e.embedding IS NULL
RETURN e.id AS id, e.occurred_at AS occurred_at

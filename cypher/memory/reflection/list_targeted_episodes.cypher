// The episodes a targeted reflection reads (seed 003's /s3-reflect): those named by id when $ids
// is not empty, else the agent's $limit newest unconsolidated non-trivial ones; newest first,
// with their vectors. Trivial episodes are never consolidated (docs/memory.md §1): named ones
// come back marked so, for the caller to skip and count.
// Params: $agent_id (string), $ids (list of episode ids, may be empty), $limit (int),
//         $dimensions (int: of the stored vectors), $embedding_model (string: a vector another
//         model made comes back as null).
// Returns: episodes (list of maps: id, text, outcome, frame, occurred_at, kind, trivial,
//          consolidated, embedding (a float32 VECTOR or null)). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL () {
  MATCH (e:Episode {agent_id: $agent_id})
  WHERE CASE WHEN size($ids) > 0 THEN e.id IN $ids
             ELSE e.consolidated = false AND e.trivial = false END
  WITH e ORDER BY e.occurred_at DESC, e.id DESC
  LIMIT $limit
  RETURN collect(e {.id, .outcome, .frame, .occurred_at, .kind, .trivial, .consolidated,
                    text: coalesce(e.text, e.user_message, e.response, ''),
                    embedding: CASE WHEN e.embedding IS NULL
                                         OR e.embedding_model <> $embedding_model THEN null
                                    ELSE vector(e.embedding, $dimensions, FLOAT32) END}) AS episodes
}
RETURN episodes

// Nodes of one label whose vector another model made and that have no replacement from $model
// yet (`credence embed reindex`, app/embeddings/reindex.py), with the text their vector embeds
// (as the writers embed it: a belief's statement, "<trigger>: <content>" of a rule (a pack's
// rule: its content, as the pack loader embeds it), an episode's previous turn then its search
// text (app/memory/session_order.py), a passage's title then its text, a hypothesis' statement,
// "<name>: <description>" of a tool).
// Params: $label (string: Belief, Rule, Episode, CorpusPassage, Hypothesis or Tool),
//         $agent_id (string), $model (string: the model reindexed to), $limit (int).
// Returns: id (string), text (string).
CYPHER 25
MATCH (n:$($label) {agent_id: $agent_id})
WHERE n.embedding IS NOT NULL AND coalesce(n.embedding_model, '') <> $model
  AND coalesce(n.embedding_next_model, '') <> $model
WITH n LIMIT $limit
OPTIONAL MATCH (previous:Episode)-[:NEXT]->(n)
WITH n, previous, coalesce(n.search_text, n.text, n.user_message, '') AS own
RETURN n.id AS id,
       CASE $label
         WHEN 'Belief' THEN n.statement
         WHEN 'Rule' THEN CASE WHEN n.pack_name IS NULL THEN n.trigger_concept + ': ' + n.content
                          ELSE n.content END
         WHEN 'Episode' THEN CASE WHEN previous IS NULL THEN own
                                  ELSE coalesce(previous.search_text, previous.text, '') + '\n' + own END
         WHEN 'CorpusPassage' THEN CASE WHEN n.title IS NULL OR n.title = '' OR n.text STARTS WITH n.title
                                        THEN n.text ELSE n.title + '\n\n' + n.text END
         WHEN 'Hypothesis' THEN n.statement
         WHEN 'Tool' THEN left(n.name + ': ' + coalesce(n.description, ''), 2000)
       END AS text

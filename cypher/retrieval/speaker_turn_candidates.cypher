// The own turns of the people a question asks about (app/retrieval/searches.py, for a question
// that asks for several things, app/text/several_answers.py): the agent's episodes said by one
// of $speakers (found along their speaker's MENTIONS edge to the :Subject of the name), ranked
// by cosine to the query vector, whichever session they are in.
// Params: $agent_id (string), $speakers (list of strings: lower-case names of speakers),
//         $embedding (list of floats), $pool (int).
// Returns: id (string), score (float in [0, 1]: the cosine min-max normalised over the turns
//          returned), best first, at most $pool.
UNWIND $speakers AS name
MATCH (:Subject {id: $agent_id + '|name:' + name})<-[:MENTIONS]-(e:Episode)
  WHERE toLower(e.speaker) = name AND e.embedding IS NOT NULL
WITH DISTINCT e
WITH e, vector.similarity.cosine(e.embedding, $embedding) AS similarity
ORDER BY similarity DESC, e.id
LIMIT $pool
WITH collect({id: e.id, s: similarity}) AS hits, min(similarity) AS lo, max(similarity) AS hi
UNWIND hits AS hit
RETURN hit.id AS id, CASE WHEN hi > lo THEN (hit.s - lo) / (hi - lo) ELSE 1.0 END AS score

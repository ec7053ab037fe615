// Bench only: the listing as it was before paging in the database (every match projected,
// then sliced), kept to compare with cypher/beliefs/store/list_beliefs (bench/belief_listing.py).
// Lists an agent's beliefs with optional filters, newest (or most tense) first, a page at a time.
// Params: $agent_id (string), $category (string or null), $active (boolean or null: null = both),
//         $min_tension (float or null), $text (string or null: case-insensitive substring of
//         the statement), $invalidated (boolean or null: true = only the invalidated ones, the
//         beliefs that need attention (seed 000); false = only valid ones; null = both),
//         $sort (string: 'newest' or 'tension'), $skip (int), $limit (int).
// Returns: beliefs (list of property maps without embeddings), count (int, all matches).
MATCH (b:Belief {agent_id: $agent_id})
WHERE ($category IS NULL OR b.category = $category)
  AND ($active IS NULL OR b.is_active = $active)
  AND ($min_tension IS NULL OR b.tension >= $min_tension)
  AND ($text IS NULL OR toLower(b.statement) CONTAINS toLower($text))
  AND ($invalidated IS NULL OR coalesce(b.is_invalidated, false) = $invalidated)
WITH b ORDER BY CASE WHEN $sort = 'tension' THEN b.tension ELSE 0.0 END DESC,
              b.created_at DESC, b.id
WITH collect(b {.*, embedding: null}) AS matches
RETURN matches[$skip..$skip + $limit] AS beliefs, size(matches) AS count

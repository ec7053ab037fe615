// Lists an agent's beliefs with optional filters, newest (or most tense) first, a page at a time.
// The matches are sorted and collected as node references (their count is the list's size),
// and only the page's rows are projected: a page costs one filtered scan and a sort, not a
// projection of every match (bench/belief_listing.py).
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
WITH collect(b) AS matches
RETURN [b IN matches[$skip..$skip + $limit] | b {.*, embedding: null}] AS beliefs,
       size(matches) AS count

// Lists agents, newest first, a page at a time, with their counts.
// Params: $agent_ids (list of strings or null: null = every agent; else only these),
//         $agent_name (string or null: only the agents with exactly this name), $skip (int),
//         $limit (int).
// Returns: agents (list of {id, name, birth_source, industry, created_at, beliefs (int, active),
//          episodes (int)}: newest first, an agent without created_at last), count (int: every
//          agent matching, all pages).
MATCH (a:Agent)
WHERE ($agent_ids IS NULL OR a.id IN $agent_ids)
  AND ($agent_name IS NULL OR a.name = $agent_name)
WITH a ORDER BY a.created_at IS NULL, a.created_at DESC, a.id
WITH collect(a) AS matches
RETURN [a IN matches[$skip..$skip + $limit] | a {
          .id, .name, .birth_source, .industry, .created_at,
          beliefs: COUNT { (b:Belief {agent_id: a.id, is_active: true}) },
          episodes: COUNT { (e:Episode {agent_id: a.id}) }
        }] AS agents,
       size(matches) AS count

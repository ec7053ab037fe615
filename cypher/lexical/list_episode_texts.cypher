// The indexed fields of every episode of the agent, to build its lexical statistics once
// (an agent whose episodes were written before they were kept).
// Params: $agent_id (string).
// Returns: search_text, user_message, response (string or null).
MATCH (e:Episode {agent_id: $agent_id})
RETURN e.search_text AS search_text, e.user_message AS user_message, e.response AS response

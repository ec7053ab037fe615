// An agent's tasks in any state (working memory shows only the open ones), newest first.
// Params: $agent_id (string), $states (list of strings: only tasks in these states; [] for all),
//         $limit (int >= 1).
// Returns: tasks (list of property maps). No row for an unknown agent.
MATCH (agent:Agent {id: $agent_id})
CALL (agent) {
  MATCH (t:Task {agent_id: agent.id})
  WHERE $states = [] OR t.state IN $states
  WITH t ORDER BY t.started_at DESC, t.id DESC
  LIMIT $limit
  RETURN collect(properties(t)) AS tasks
}
RETURN tasks

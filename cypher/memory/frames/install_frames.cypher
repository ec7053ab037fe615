// Installs (or updates in place) frames of an agent, merged on (agent_id, key): idempotent.
// An installed frame is active: one a pack version had retired (packs/loader/retire_pack_frames)
// acts again.
// Call graph/agent_scope/lock_agent first in the same transaction.
// Params: $agent_id (string), $source (string: 'seed' or 'pack:<name>'),
//         $frames (list of maps: key, name, description, activation_patterns (list of strings),
//         default_category, default_stakes, questions_to_ask (list of strings),
//         context_budget (int), position (int: its place among $frames, from 0)),
//         $first_position (int: the position of the first of $frames at least),
//         $after_others (boolean: true for a pack's frames, which go after every frame of the
//         agent from another source, so that listing shows the shipped frames first, then each
//         pack's frames in its order; false for the shipped frames, from $first_position).
// Returns: installed (int, frames merged).
// $now (datetime): the clock's time; the graph client fills it in when not passed.
MATCH (agent:Agent {id: $agent_id})
OPTIONAL MATCH (other:Frame {agent_id: $agent_id})
  WHERE $after_others AND coalesce(other.source, 'seed') <> $source
WITH agent, max(other.position) AS highest
WITH agent,
     CASE WHEN highest IS NULL OR highest < $first_position THEN $first_position
          ELSE highest + 1 END AS first
UNWIND $frames AS spec
MERGE (f:Frame {agent_id: $agent_id, key: spec.key})
  ON CREATE SET f.id = randomUUID(), f.installed_at = $now
SET f.name = spec.name,
    f.description = spec.description,
    f.activation_patterns = spec.activation_patterns,
    f.default_category = spec.default_category,
    f.default_stakes = spec.default_stakes,
    f.questions_to_ask = spec.questions_to_ask,
    f.context_budget = spec.context_budget,
    f.position = first + spec.position,
    f.source = $source,
    f.updated_at = $now,
    f.is_active = true,
    f.deactivated_at = null
REMOVE f.retired_by_pack, f.retired_in_version
RETURN count(f) AS installed

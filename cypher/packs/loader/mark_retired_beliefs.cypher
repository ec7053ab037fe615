// Marks the beliefs a pack version dropped (deactivated by beliefs/store/deactivate_belief in the
// same transaction) as retired by the pack, so that a later version bringing the key back gives
// it again, while a belief a person deactivated stays out (packs/loader/get_pack_state).
// Params: $agent_id (string), $pack_name (string), $version (int: the version being loaded),
//         $ids (list of strings: the beliefs' ids).
// Returns: marked (int).
UNWIND $ids AS belief_id
MATCH (b:Belief {agent_id: $agent_id, id: belief_id})
SET b.retired_by_pack = $pack_name, b.retired_in_version = $version
RETURN count(b) AS marked

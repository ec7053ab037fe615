// Lists every index with its state, so the runner can wait for ONLINE and report FAILED ones.
// Params: none.
// Returns: name (string), state (string: ONLINE, POPULATING or FAILED), type (string),
//          progress (float, percent populated).
SHOW INDEXES YIELD name, state, type, populationPercent
RETURN name, state, type, populationPercent AS progress
ORDER BY name

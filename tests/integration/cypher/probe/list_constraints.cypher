// Probe: every constraint. Params: none.
// Returns: name (string), type (string), labels (list), properties (list).
SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties
RETURN name, type, labelsOrTypes AS labels, properties

// Probe: every index. Params: none.
// Returns: name (string), type (string), state (string), labels (list), properties (list),
//          owning_constraint (string or null), options (map).
SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties, owningConstraint, options
RETURN name, type, state, labelsOrTypes AS labels, properties,
       owningConstraint AS owning_constraint, options

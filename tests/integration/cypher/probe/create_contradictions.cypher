// Test setup: creates open CONTRADICTS edges between beliefs given by id.
// Params: $pairs (list of {a: string, b: string, strength: float}). Returns: created (int).
UNWIND $pairs AS pair
MATCH (a:Belief {id: pair.a}), (b:Belief {id: pair.b})
CREATE (a)-[c:CONTRADICTS {status: 'open', strength: pair.strength}]->(b)
RETURN count(c) AS created

// Dissatisfaction samples (one per observed turn) are read per agent in time order.
CREATE CONSTRAINT dissatisfaction_sample_id_unique IF NOT EXISTS
FOR (n:DissatisfactionSample) REQUIRE n.id IS UNIQUE;
CREATE INDEX dissatisfaction_sample_agent_id IF NOT EXISTS
FOR (n:DissatisfactionSample) ON (n.agent_id);
CREATE INDEX dissatisfaction_sample_agent_at IF NOT EXISTS
FOR (n:DissatisfactionSample) ON (n.agent_id, n.at);

// Every tension query is agent-scoped and served by belief_agent_tension (V0007); the global
// index only cost an extra index update on every tension change.
DROP INDEX belief_tension IF EXISTS;

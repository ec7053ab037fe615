// Per-agent lexical statistics (issue 22): each agent's episode count and total length
// (:LexicalCorpus, id = the agent id) and each counted term's document frequency over the
// agent's episodes (:LexicalTerm, id = "<agent id>|<term>"), kept on every episode write
// (app/memory/lexical_stats.py) and read by the episode search to score its fulltext candidates
// with the agent's own statistics instead of the index-wide ones. An agent whose episodes
// predate them gets them on its next write or search (built from its stored episodes), so no
// backfill runs here.
CREATE CONSTRAINT lexical_corpus_id IF NOT EXISTS
FOR (n:LexicalCorpus) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT lexical_term_id IF NOT EXISTS
FOR (n:LexicalTerm) REQUIRE n.id IS UNIQUE;
CREATE INDEX lexical_corpus_agent_id IF NOT EXISTS
FOR (n:LexicalCorpus) ON (n.agent_id);
CREATE INDEX lexical_term_agent_id IF NOT EXISTS
FOR (n:LexicalTerm) ON (n.agent_id);

// Fulltext (Lucene) indexes for keyword retrieval. agent_id is indexed as a field too, so a query
// is scoped to one agent inside the index search: `statement:(...) AND agent_id:"<id>"`.
CREATE FULLTEXT INDEX belief_statement_fulltext IF NOT EXISTS
FOR (n:Belief) ON EACH [n.statement, n.agent_id];
CREATE FULLTEXT INDEX episode_text_fulltext IF NOT EXISTS
FOR (n:Episode) ON EACH [n.text, n.user_message, n.response, n.agent_id];
CREATE FULLTEXT INDEX rule_content_fulltext IF NOT EXISTS
FOR (n:Rule) ON EACH [n.content, n.agent_id];
CREATE FULLTEXT INDEX person_name_fulltext IF NOT EXISTS
FOR (n:Person) ON EACH [n.name, n.agent_id];

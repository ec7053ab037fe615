// What episodes are about, as graph edges (issue 22): (:Episode)-[:MENTIONS]->(:Subject), a
// Subject being a name (a person, a place: the speaker and the names a turn says) or a topic
// (a word general English rarely uses, stemmed), found offline by app/text/entities.py on every
// episode write (app/memory/episode_subjects.py). id = "<agent id>|<key>", episodes = how many
// of the agent's episodes mention it. The episode search gathers the turns that mention the
// question's subjects across sessions. Episodes written before get their edges when
// app/memory/episode_subjects.link_stored_episodes runs for their agent, so no backfill here.
CREATE CONSTRAINT subject_id IF NOT EXISTS
FOR (n:Subject) REQUIRE n.id IS UNIQUE;
CREATE INDEX subject_agent_id IF NOT EXISTS
FOR (n:Subject) ON (n.agent_id);

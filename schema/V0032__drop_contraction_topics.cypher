// Contractions lost their apostrophe in the topic finder ("I'm" -> "im", "let's" -> "lets") and,
// being rare in written English without it, were linked as topics: a LoCoMo speaker's topics
// read "lets", "im", "youre". app/text/entities.py skips them now (CONTRACTIONS); the MENTIONS
// edges already linked for them are removed here, each subject's episode count lowered, and a
// subject left with no mention removed. An edge is known by its word form (surface: "lets"),
// not its stem, which a word may share ("letting" is topic:let too). Edges linked before forms
// were kept (surface null) are removed only for the stems no other rare English word has
// (wordfreq's 200,000 commonest, below the topic frequency). tests/unit/text/test_entities.py
// checks both lists against CONTRACTIONS. Idempotent.
MATCH (:Episode)-[m:MENTIONS]->(s:Subject {kind: 'topic'})
  WHERE m.surface IN [
    'aint', 'arent', 'cant', 'couldnt', 'didnt', 'doesnt', 'dont', 'hadnt', 'hasnt', 'havent',
    'hes', 'hows', 'im', 'isnt', 'itd', 'itll', 'ive', 'lets', 'mustnt', 'neednt', 'shes',
    'shouldnt', 'thatd', 'thatll', 'thats', 'theres', 'theyd', 'theyll', 'theyre', 'theyve',
    'wasnt', 'werent', 'weve', 'whats', 'wheres', 'whos', 'wont', 'wouldnt', 'yall', 'youd',
    'youll', 'youre', 'youve']
     OR (m.surface IS NULL AND s.key IN [
    'topic:aint', 'topic:arent', 'topic:couldnt', 'topic:didnt', 'topic:doesnt', 'topic:hadnt',
    'topic:hasnt', 'topic:havent', 'topic:im', 'topic:isnt', 'topic:itd', 'topic:mustnt',
    'topic:neednt', 'topic:shouldnt', 'topic:thatd', 'topic:thatl', 'topic:theyd', 'topic:theyl',
    'topic:theyv', 'topic:wasnt', 'topic:werent', 'topic:wev', 'topic:wouldnt', 'topic:youd',
    'topic:youv'])
WITH s, collect(m) AS contracted
FOREACH (m IN contracted | DELETE m)
SET s.episodes = s.episodes - size(contracted);
MATCH (s:Subject {kind: 'topic'})
  WHERE s.key IN [
    'topic:aint', 'topic:arent', 'topic:cant', 'topic:couldnt', 'topic:didnt', 'topic:doesnt',
    'topic:dont', 'topic:hadnt', 'topic:hasnt', 'topic:havent', 'topic:hes', 'topic:how',
    'topic:im', 'topic:isnt', 'topic:itd', 'topic:itl', 'topic:ive', 'topic:let', 'topic:mustnt',
    'topic:neednt', 'topic:she', 'topic:shouldnt', 'topic:that', 'topic:thatd', 'topic:thatl',
    'topic:ther', 'topic:theyd', 'topic:theyl', 'topic:theyr', 'topic:theyv', 'topic:wasnt',
    'topic:werent', 'topic:wev', 'topic:what', 'topic:wher', 'topic:who', 'topic:wont',
    'topic:wouldnt', 'topic:yal', 'topic:youd', 'topic:youl', 'topic:your', 'topic:youv']
    AND NOT EXISTS { (s)<-[:MENTIONS]-() }
DELETE s;

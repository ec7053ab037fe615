// Data: a speaker's key and a person's name key collapse runs of white space, as
// app/memory/people/names.py name_key does ("Bob  Jones", "bob jones" and "BOB\tJONES" are one
// speaker, one person). Episodes were keyed toLower(speaker) (V0031, memory/episodes/
// create_episodes before this change) and people by toLower(trim(name)) (V0012): a speaker
// written with two spaces was not found by the name of the person they are. Every writer keys
// through name_key from now on. The white space is Python's str.split()'s (the Unicode
// white space). Two people whose keys become one are both kept, unmerged: people may share a
// name already (POST …/people always creates one), a look-up by name takes the oldest of them,
// and each episode keeps the person it was linked to; `credence people merge` makes them one if
// they are one human (docs/memory.md §2). Idempotent: only a key that differs is written.
MATCH (e:Episode) WHERE e.speaker IS NOT NULL
WITH e, [word IN split(toLower(e.speaker), [
    ' ', '\t', '\n', '\u000B', '\f', '\r', '\u001C', '\u001D', '\u001E', '\u001F',
    '\u0085', '\u00A0', '\u1680', '\u2000', '\u2001', '\u2002', '\u2003', '\u2004',
    '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200A', '\u2028', '\u2029',
    '\u202F', '\u205F', '\u3000']) WHERE word <> ''] AS words
WITH e, reduce(key = '', word IN words | key + CASE key WHEN '' THEN '' ELSE ' ' END + word) AS key
WHERE e.speaker_key IS NULL OR e.speaker_key <> key
CALL (e, key) {
  SET e.speaker_key = key
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (p:Person) WHERE p.name IS NOT NULL
WITH p, [word IN split(toLower(p.name), [
    ' ', '\t', '\n', '\u000B', '\f', '\r', '\u001C', '\u001D', '\u001E', '\u001F',
    '\u0085', '\u00A0', '\u1680', '\u2000', '\u2001', '\u2002', '\u2003', '\u2004',
    '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200A', '\u2028', '\u2029',
    '\u202F', '\u205F', '\u3000']) WHERE word <> ''] AS words
WITH p, reduce(key = '', word IN words | key + CASE key WHEN '' THEN '' ELSE ' ' END + word) AS key
WHERE p.name_key IS NULL OR p.name_key <> key
CALL (p, key) {
  SET p.name_key = key
} IN TRANSACTIONS OF 10000 ROWS;

"""Cypher written once and used in several query files. Cypher has no includes, so a block that
several queries must hold the same way is generated here from one template, between two marker
comments in each file that uses it:

- ``vector half``: the agent's nodes from a vector index, with Neo4j 2026.08's workaround for a
  filtered search whose LIMIT exceeds the matching entries, min-max normalised (the four fused
  searches: beliefs, episodes, rules, research passages);
- ``censor source``: where a censor comes from (default, pack, learned, manual), derived for
  the censors stored before ``source`` was (the guardian's reads and the tool call's start
  read);
- ``agent lock``: the agent's write lock, then whether the agent still takes writes
  (``graph/agent_scope/lock_agent`` and the writes run alone: a tool call's one-query record
  and settling, an approval given back, the vector writes, a tool marked as a search source).

``tests/unit/test_shared_blocks.py`` fails when a file drifts.

    .venv/bin/python tools/cypher/shared_blocks.py          # rewrite the blocks
    .venv/bin/python tools/cypher/shared_blocks.py --check  # exit 1 when a file is out of sync
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Labels, variables and index names are a whitelist (plain names): nothing else is rendered.
TEMPLATES: Mapping[str, str] = {
    "vector half": """\
WITH 1 AS go WHERE $embedding IS NOT NULL AND $w.vector_on
CALL () {
  MATCH (x:{label} {agent_id: $agent_id})
    WHERE x.embedding IS NOT NULL AND x.embedding_model = $embedding_model
  RETURN x LIMIT $candidates
}
WITH collect(x) AS few
// Neo4j 2026.08 fails a filtered vector search whose LIMIT exceeds the matching entries once the
// index holds deleted ones ("Index ... out of bounds"): an agent with fewer embedded {noun}
// than the candidates is ranked exactly instead (the same cosine score, read from its nodes).
CALL (few) {
  WITH few WHERE size(few) < $candidates
  UNWIND few AS {v}
  RETURN {v}, vector.similarity.cosine({v}.embedding, $embedding) AS similarity
  UNION ALL
  WITH few WHERE size(few) >= $candidates
  MATCH ({v}:{label})
    SEARCH {v} IN (VECTOR INDEX {index} FOR $embedding WHERE {v}.agent_id = $agent_id LIMIT $candidates)
    SCORE AS similarity
  // Only the running model's vectors ($embedding_model made $embedding): no search mixes two.
  WITH {v}, similarity WHERE {v}.embedding_model = $embedding_model
  RETURN {v}, similarity
}
WITH {v}, similarity ORDER BY similarity DESC
WITH collect({{v}: {v}, s: similarity}) AS hits, min(similarity) AS lo, max(similarity) AS hi
UNWIND range(0, size(hits) - 1) AS i
RETURN hits[i].{v} AS {v}, i + 1 AS vector_rank, null AS fulltext_rank,
       CASE WHEN hi > lo THEN (hits[i].s - lo) / (hi - lo) ELSE 1.0 END AS vector_score,
       null AS fulltext_score{extra}""",  # noqa: E501
    "censor source": """\
coalesce({c}.source, CASE
  WHEN {c}.pack_name = 'default' THEN 'default'
  WHEN {c}.pack_name IS NOT NULL THEN 'pack'
  WHEN {c}.auto_created THEN 'learned'
  ELSE 'manual' END)""",
    "agent lock": """\
MATCH (:Agent {id: $agent_id})
MERGE (l:AgentLock {of_agent: $agent_id})
SET l.write_count = coalesce(l.write_count, 0) + 1
WITH l
MATCH ({a}:Agent {id: $agent_id})
WHERE {a}.deleting IS NULL""",
}


@dataclass(frozen=True)
class Use:
    """One file's copy of a block: its template's placeholders filled, indented as the file
    nests it."""

    path: str
    block: str
    indent: int
    names: Mapping[str, str] = field(default_factory=dict)
    extra: str = ""


def _vector(
    path: str, label: str, v: str, index: str, noun: str, indent: int, extra: str = ""
) -> Use:
    names = {"label": label, "v": v, "index": index, "noun": noun}
    return Use(path, "vector half", indent, names, extra)


USES = (
    _vector(
        "cypher/retrieval/search_beliefs.cypher", "Belief", "b", "belief_embedding", "beliefs", 4
    ),
    _vector(
        "cypher/retrieval/search_episodes.cypher",
        "Episode",
        "e",
        "episode_embedding",
        "episodes",
        2,
        ", null AS coverage_score, null AS own_turn_score",
    ),
    _vector("cypher/retrieval/search_rules.cypher", "Rule", "r", "rule_embedding", "rules", 2),
    _vector(
        "cypher/research/search_corpus_passages.cypher",
        "CorpusPassage",
        "p",
        "corpus_passage_embedding",
        "passages",
        2,
    ),
    Use("cypher/guardian/censors/get_censor.cypher", "censor source", 2, {"c": "c"}),
    Use("cypher/guardian/censors/list_censors.cypher", "censor source", 4, {"c": "c"}),
    Use("cypher/guardian/check/list_active_censors.cypher", "censor source", 4, {"c": "c"}),
    Use("cypher/loop/activation/get_tool_call_start.cypher", "censor source", 4, {"c": "c"}),
    Use("cypher/graph/agent_scope/lock_agent.cypher", "agent lock", 0, {"a": "a"}),
    Use("cypher/loop/approvals/release_approval.cypher", "agent lock", 0, {"a": "ag"}),
    Use("cypher/loop/tool_turns/complete_call.cypher", "agent lock", 0, {"a": "ag"}),
    Use("cypher/loop/tool_turns/interrupt_call.cypher", "agent lock", 0, {"a": "ag"}),
    Use("cypher/loop/tool_turns/interrupt_stale_calls.cypher", "agent lock", 0, {"a": "ag"}),
    Use("cypher/loop/tool_turns/record_call.cypher", "agent lock", 0, {"a": "ag"}),
    *(
        Use(f"cypher/embeddings/{name}.cypher", "agent lock", 0, {"a": "a"})
        for name in (
            "store/set_belief_embeddings",
            "store/set_rule_embeddings",
            "store/set_episode_embeddings",
            "reindex/set_next_vectors",
        )
    ),
    Use("cypher/tools/set_search_source.cypher", "agent lock", 0, {"a": "a"}),
)
_NAME = re.compile(r"[A-Za-z][A-Za-z_]*")


def begin_marker(block: str) -> str:
    return f"// begin {block} (generated by tools/cypher/shared_blocks.py; edit the template there)"


def end_marker(block: str) -> str:
    return f"// end {block}"


def render(use: Use) -> str:
    """The marked block of one file, indented as the file nests it."""
    body = TEMPLATES[use.block]
    # The whitelist: a placeholder gets a plain name, never Cypher.
    for value in use.names.values():
        if not _NAME.fullmatch(value):
            raise ValueError(f"not a plain name: {value!r}")
    for key, value in use.names.items():
        body = body.replace("{{" + key + "}", "{" + value).replace("{" + key + "}", value)
    body = body.replace("{extra}", use.extra)
    pad = " " * use.indent
    lines = [begin_marker(use.block), *body.splitlines(), end_marker(use.block)]
    return "\n".join(pad + line for line in lines)


def rewritten(text: str, use: Use) -> str:
    """``text`` with its marked block replaced by the rendered one."""
    pattern = re.compile(
        r"^[ \t]*" + re.escape(begin_marker(use.block)) + r".*?" + re.escape(end_marker(use.block)),
        re.S | re.M,
    )
    if len(pattern.findall(text)) != 1:
        raise ValueError(f"{use.path}: expected one marked {use.block}")
    return pattern.sub(lambda _: render(use), text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    stale = []
    for use in USES:
        path = ROOT / use.path
        text = path.read_text()
        new = rewritten(text, use)
        if new != text:
            stale.append(use.path)
            if not args.check:
                path.write_text(new)
    if args.check and stale:
        print("out of sync: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The code and docs cite the design's source documents as "seed 000" … "seed 004"; those are
not in the repository, so docs/origins.md must say what each cited one is."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ORIGINS = ROOT / "docs" / "origins.md"

_CITATION = re.compile(r"\bseeds? (\d{3})(?:\s*/\s*(\d{3}))?")
_SECTION = re.compile(r"^## §\d+ seed (\d{3}) — ", re.MULTILINE)


def cited_seeds() -> dict[str, set[str]]:
    """Each seed number cited in a tracked text file, with the files citing it."""
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    cited: dict[str, set[str]] = {}
    for name in filter(None, listing.split("\0")):
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".cypher", ".toml", ".yaml", ".json"} or not (
            path.is_file()
        ):
            continue
        for match in _CITATION.finditer(path.read_text(encoding="utf-8", errors="replace")):
            for number in filter(None, match.groups()):
                cited.setdefault(number, set()).add(name)
    return cited


def test_every_cited_seed_has_a_section_in_origins() -> None:
    described = set(_SECTION.findall(ORIGINS.read_text(encoding="utf-8")))
    cited = cited_seeds()
    assert cited, "the pattern no longer finds the code's seed citations"
    missing = {number: sorted(files) for number, files in cited.items() if number not in described}
    assert not missing, f"seeds cited but not described in docs/origins.md: {missing}"


def test_the_citation_pattern_reads_both_forms() -> None:
    found = [g for m in _CITATION.finditer("(seed 002 / 003) and seed 000's") for g in m.groups()]
    assert [g for g in found if g] == ["002", "003", "000"]

"""The design lives in the repository: nothing cites a document outside it, and every
``docs/<file>.md §N`` reference names a document of ``docs/`` that has that section."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# Built from pieces so that this file does not cite them itself.
_OUTSIDE = re.compile(
    "|".join([r"DESIGN\s*" + "§", r"DESIGN\.md", r"STYLE\s*" + "§", r"STYLE\.md"])
)
# docs/beliefs.md, docs/beliefs.md §7, docs/memory.md §6, §7 (a list of sections of one file).
_REFERENCE = re.compile(
    r"docs/(?P<file>[A-Za-z0-9_-]+\.md)(?P<sections>(?:\s*(?:,|and)?\s*§\s*\d+)*)"
)
_SECTION_NUMBER = re.compile(r"§\s*(\d+)")
_HEADING = re.compile(r"^#{1,6}\s*§(\d+)\b", re.MULTILINE)

# Applied migrations are never edited: each one's checksum is recorded in every database it ran
# on, and a changed file stops `credence db migrate` (docs/style.md §3). These three headers
# still cite the design document the project had before docs/; there, §4 is now
# docs/graph-model.md §1 and §5 is docs/memory.md §2. No other file may cite it.
APPLIED_MIGRATIONS_CITING_THE_OLD_DESIGN = frozenset(
    {
        "schema/V0001__create_id_constraints.cypher",
        "schema/V0013__backfill_person_relationship_values.cypher",
        "schema/V0021__create_research_model.cypher",
    }
)

# Used only when git cannot list the files (an unpacked sdist): what .gitignore leaves out.
_SKIPPED_DIRS = {
    ".git",
    ".neo4j",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    ".schemathesis",
    "dist",
    "build",
}


def _listed_by_git() -> list[str] | None:
    git = shutil.which("git")
    if git is None:
        return None
    listing = subprocess.run(
        [git, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if listing.returncode != 0:
        return None
    return [name for name in listing.stdout.decode("utf-8").split("\0") if name]


def _walked() -> list[str]:
    names: list[str] = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(
            part in _SKIPPED_DIRS or part.startswith(".venv") or part.endswith(".egg-info")
            for part in parts[:-1]
        ):
            continue
        if path.is_file() and path.name not in (".env", ".git"):
            names.append(path.relative_to(ROOT).as_posix())
    return names


def repository_texts() -> Iterator[tuple[str, str]]:
    """(path relative to the root, text) of every text file of the repository, outside .git and
    the virtual environments."""
    names = _listed_by_git()
    for name in sorted(names if names is not None else _walked()):
        if name.split("/")[0].startswith(".venv"):
            continue
        path = ROOT / name
        if not path.is_file():  # listed by git but deleted in the working tree
            continue
        try:
            yield name, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue


def outside_citations(text: str) -> list[str]:
    """The lines of ``text`` that cite a design or style document outside the repository."""
    return [line.strip() for line in text.splitlines() if _OUTSIDE.search(line)]


def document_sections(docs: Path) -> dict[str, set[int]]:
    """Each document of ``docs`` with the section numbers of its headings (``## §3 ...``)."""
    return {
        path.name: {int(n) for n in _HEADING.findall(path.read_text(encoding="utf-8"))}
        for path in docs.glob("*.md")
    }


def broken_references(text: str, sections: dict[str, set[int]]) -> list[str]:
    """The ``docs/<file>.md [§N]`` references of ``text`` that name no document of docs/ or a
    section the document does not have."""
    broken: list[str] = []
    for match in _REFERENCE.finditer(text):
        file = match.group("file")
        if file not in sections:
            broken.append(f"{match.group(0).strip()}: no such document")
            continue
        for number in _SECTION_NUMBER.findall(match.group("sections")):
            if int(number) not in sections[file]:
                broken.append(f"{match.group(0).strip()}: {file} has no §{number}")
    return broken


def test_nothing_cites_a_document_outside_the_repository() -> None:
    found = {
        name: lines
        for name, text in repository_texts()
        if name not in APPLIED_MIGRATIONS_CITING_THE_OLD_DESIGN
        and (lines := outside_citations(text))
    }
    assert found == {}, f"cite docs/ instead (docs/README.md lists the documents): {found}"


def test_the_exempt_migrations_are_exactly_the_ones_that_still_cite_it() -> None:
    """The allow-list cannot grow stale: each file on it exists and still holds the citation."""
    for name in APPLIED_MIGRATIONS_CITING_THE_OLD_DESIGN:
        assert outside_citations((ROOT / name).read_text(encoding="utf-8")), name


def test_every_docs_reference_names_an_existing_document_and_section() -> None:
    sections = document_sections(DOCS)
    broken = {
        name: problems
        for name, text in repository_texts()
        if (problems := broken_references(text, sections))
    }
    assert broken == {}


def test_design_documents_number_their_sections_one_by_one_and_are_listed() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for name, numbers in document_sections(DOCS).items():
        if name == "README.md":
            continue
        assert f"({name})" in index, f"docs/README.md does not list {name}"
        if numbers:
            assert sorted(numbers) == list(range(1, len(numbers) + 1)), name


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see " + "DESIGN" + " §5 for the formula", 1),
        ("# as " + "STYLE" + ".md says", 1),
        ("the " + "DESIGN" + ".md file", 1),
        ("see " + "docs" + "/beliefs.md §5", 0),
        ("a DESIGNER's sketch", 0),
    ],
)
def test_outside_citations_are_found(text: str, expected: int) -> None:
    assert len(outside_citations(text)) == expected


# The examples below name documents through D, so the repository scan does not read them as
# references of this file.
D = "docs" + "/"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (D + "beliefs.md §2", []),
        (D + "beliefs.md §2, §3 and " + D + "loop.md", []),
        (D + "beliefs.md §9", [D + "beliefs.md §9: beliefs.md has no §9"]),
        (D + "beliefs.md §2, §9", [D + "beliefs.md §2, §9: beliefs.md has no §9"]),
        (D + "nowhere.md §1", [D + "nowhere.md §1: no such document"]),
    ],
)
def test_broken_references_are_found(text: str, expected: list[str]) -> None:
    sections = {"beliefs.md": {1, 2, 3}, "loop.md": {1}}
    assert broken_references(text, sections) == expected


# [text](target) and ![alt](target); a target with a scheme (https:, mailto:) or only an anchor
# is not a file of the repository. Code blocks are left out: their brackets are not links.
_LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def relative_links(path: Path) -> list[str]:
    """The relative link targets of the Markdown file ``path`` (anchors dropped)."""
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    targets: list[str] = []
    for match in _LINK.finditer(text):
        target = match.group("target")
        if _SCHEME.match(target) or target.startswith("#"):
            continue
        targets.append(target.split("#", 1)[0])
    return targets


def unresolved_links(path: Path) -> list[str]:
    """The relative links of ``path`` that name no file or folder."""
    return [target for target in relative_links(path) if not (path.parent / target).exists()]


def reachable_from(starts: list[Path]) -> set[Path]:
    """Every file reached by following relative links from ``starts``, Markdown to Markdown."""
    seen: set[Path] = set()
    todo = [start.resolve() for start in starts]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        if path.suffix == ".md":
            todo.extend((path.parent / target).resolve() for target in relative_links(path))
    return seen


def test_every_relative_link_of_the_documents_resolves() -> None:
    documents = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    broken = {
        path.relative_to(ROOT).as_posix(): targets
        for path in documents
        if (targets := unresolved_links(path))
    }
    assert broken == {}


def test_every_file_of_docs_is_reachable_from_a_readme() -> None:
    reached = reachable_from([ROOT / "README.md", DOCS / "README.md"])
    unreached = sorted(
        path.relative_to(ROOT).as_posix()
        for path in DOCS.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.resolve() not in reached
    )
    assert unreached == [], "link them from docs/README.md"


def test_links_are_followed_and_broken_ones_found(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.md").write_text(
        "[b](sub/b.md) [web](https://x.org) [top](#a)\n```\n[not](c.md)\n```\n[gone](gone.md)\n",
        encoding="utf-8",
    )
    (tmp_path / "sub" / "b.md").write_text("![pic](p.png) [back](../a.md#s)\n", encoding="utf-8")
    (tmp_path / "sub" / "p.png").write_bytes(b"")
    (tmp_path / "c.md").write_text("", encoding="utf-8")
    assert unresolved_links(tmp_path / "a.md") == ["gone.md"]
    reached = reachable_from([tmp_path / "a.md"])
    assert {p.name for p in reached} == {"a.md", "b.md", "p.png"}

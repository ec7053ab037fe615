"""Domain skills as data (``seeds/skills/<name>.yaml``, docs/scenarios.md §2): reading the
shipped skill files, and the skill stored with a pack an agent loaded (docs/packs.md §5).

The shipped skill is ``accounting``: the skill of every agent whose packs bring none. The model
is ``app/seeds/skill_schema.py``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from app.errors import SeedFileInvalid, error_entry, file_location
from app.resources import resource_dir
from app.seeds.files import read_seed_model
from app.seeds.skill_schema import DomainSkill, skill_problems

DEFAULT_SKILL = "accounting"


def skills_dir() -> Path:
    return resource_dir("seeds") / "skills"


def read_skill(path: Path) -> DomainSkill:
    """Parses and validates one skill file.

    Raises:
        SeedFileInvalid: naming the file and each field that is wrong (verbs and criteria must
            be unique).
    """
    skill = read_seed_model(DomainSkill, path)
    problems = skill_problems(skill, prefix=file_location(str(path)))
    if problems:
        raise SeedFileInvalid(str(path), problems)
    return skill


@lru_cache(maxsize=8)
def load_skill(name: str = DEFAULT_SKILL) -> DomainSkill:
    """The shipped skill called ``name`` (``seeds/skills/<name>.yaml``), read once per process.

    Raises:
        SeedFileInvalid: the file is missing or invalid.
    """
    path = skills_dir() / f"{name}.yaml"
    if not path.exists():
        missing = error_entry(file_location(str(path)), f"no skill called {name!r}", "not_found")
        raise SeedFileInvalid(str(path), [missing])
    return read_skill(path)


def skill_json(skill: DomainSkill) -> str:
    """A skill as the graph stores it (a JSON string on its pack's node)."""
    return json.dumps(skill.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=32)
def stored_skill(text: str | None) -> DomainSkill | None:
    """The skill a pack stored (``skill_json``), parsed once per distinct text; None for none."""
    if not text:
        return None
    return DomainSkill.model_validate_json(text)

"""Where the shipped data folders (``cypher/``, ``schema/``, ``seeds/``) are.

In a checkout (and an editable install) they sit at the repository root, next to ``app/``; in an
installed wheel they are package data under ``app/_resources/``. Both layouts are tested.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

ResourceName = Literal["cypher", "schema", "seeds"]

_PACKAGE_DIR = Path(__file__).resolve().parent


def resource_dir(name: ResourceName) -> Path:
    """The folder holding the named resource.

    Raises:
        FileNotFoundError: neither the wheel layout nor the checkout layout has it.
    """
    for candidate in (_PACKAGE_DIR / "_resources" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"Credence resource folder {name!r} not found in {_PACKAGE_DIR / '_resources'} "
        f"or {_PACKAGE_DIR.parent}: is the package installed completely?"
    )

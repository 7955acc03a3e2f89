"""JavaScript's ``undefined``, for the Verist diff and canonical form.

``None`` is JSON ``null``; ``MISSING`` is a key or value that is not there at all.
"""

from __future__ import annotations

from enum import Enum
from typing import Final, Literal


class _Missing(Enum):
    MISSING = "MISSING"

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Final = _Missing.MISSING
MissingType = Literal[_Missing.MISSING]

"""Did-you-mean (issue 21): the one place that guesses which known name a user meant.

difflib's ratio (the standard library) is enough for names of a few dozen characters; the
callers word the hint, since each says something different when nothing is close.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6  # difflib's default: keys and profile names, short and unlike one another
CLOSE = 0.8  # gpu-classes share their shape (h100-80gb, a100-80gb): only a near miss
VERY_CLOSE = 0.9  # vmSizes share long prefixes (Standard_ND96…_v5)


def closest(word: str, known: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The known name `word` most likely misspells, or None; ASCII case does not count
    (`H200-141GB` means `h200-141gb`). difflib breaks a tie by the names themselves, so the
    guess never depends on the order `known` comes in."""
    folded: dict[str, str] = {}
    for name in sorted(set(known)):
        folded.setdefault(name.lower(), name)
    found = difflib.get_close_matches(word.lower(), list(folded), n=1, cutoff=cutoff)
    return folded[found[0]] if found else None

"""Read whole-number Kubernetes quantities back from the output (independent of taugen's parser)."""

from __future__ import annotations

import re

_FACTOR = {
    "": 1,
    "k": 10**3,
    "M": 10**6,
    "G": 10**9,
    "T": 10**12,
    "P": 10**15,
    "E": 10**18,
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "Ti": 2**40,
    "Pi": 2**50,
    "Ei": 2**60,
}
_WHOLE = re.compile(r"([0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[kMGTPE])?")


def whole(text: str | int) -> int:
    """8 -> 8, "8" -> 8, "1k" -> 1000, "2Ki" -> 2048; anything else is a ValueError."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    match = _WHOLE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"{text!r} is not a whole-number Kubernetes quantity")
    return int(match[1]) * _FACTOR[match[2] or ""]

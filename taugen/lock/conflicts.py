"""Git's merge-conflict markers in a file taugen generated (R35): both sides, read back whole.

A merge that leaves `taugen.lock` or a committed ClusterQueue conflicted must not lose the
history either side holds: taugen reads each side as the whole file it would have been and
keeps the maximum, and the next build writes the merged result.
"""

from __future__ import annotations

_OURS, _BASE, _SPLIT, _THEIRS = "<<<<<<<", "|||||||", "=======", ">>>>>>>"


def _is_marker(line: str, marker: str) -> bool:
    rest = line.removeprefix(marker)
    return rest != line and (rest == "" or rest[0] in " \t\r\n")


def conflict_sides(text: str) -> tuple[str, str] | None:
    """The file as each side wrote it, or None when it holds no conflict markers.

    Raises ValueError for markers that do not nest as git writes them (`diff3` style, with
    a `|||||||` base section, included)."""
    if not any(_is_marker(line, _OURS) for line in text.splitlines()):
        return None
    ours: list[str] = []
    theirs: list[str] = []
    state = "both"
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        state = _step(state, line, number)
        if state in ("both", "ours") and not _marker_line(line):
            ours.append(line)
        if state in ("both", "theirs") and not _marker_line(line):
            theirs.append(line)
    if state != "both":
        raise ValueError("a merge conflict is not closed by >>>>>>>")
    return "".join(ours), "".join(theirs)


def _marker_line(line: str) -> bool:
    return any(_is_marker(line, m) for m in (_OURS, _BASE, _SPLIT, _THEIRS))


_NEXT = {  # state -> marker -> next state
    "both": {_OURS: "ours"},
    "ours": {_BASE: "base", _SPLIT: "theirs"},
    "base": {_SPLIT: "theirs"},
    "theirs": {_THEIRS: "both"},
}


def _step(state: str, line: str, number: int) -> str:
    for marker in (_OURS, _BASE, _SPLIT, _THEIRS):
        if _is_marker(line, marker):
            if marker not in _NEXT[state]:
                raise ValueError(f"line {number}: unexpected {marker} in a merge conflict")
            return _NEXT[state][marker]
    return state

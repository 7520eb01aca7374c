"""Fuzzing the inputs (issue 7): valid and near-valid inventories, rules and projects.

Properties, through the CLI: never a traceback (exit 3); nothing written outside the output
root but the lock; a valid input builds and `taugen validate` finds the tree clean; an
invalid one exits 2 and every error names a file with a line inside it. A near-valid input
is a valid project with one file changed by one mutation below (some mutations leave it
valid: then it must build). `HYPOTHESIS_PROFILE=long` draws 10,000 examples per property.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from taugen.cli import main
from tests.property.strategies import Fleet, fleets, write_fleet
from tests.support.helpers import snapshot

# The long run: 10,000 examples per property (FUZZ_EXAMPLES to choose another number).
LONG = (
    settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "10000")))
    if os.environ.get("HYPOTHESIS_PROFILE") == "long"
    else settings()
)
ERROR = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: .* \[[^\]]+\]$")
FILES = ("inventory.yaml", "rules.yaml", "taugen.yaml", "profiles.yaml")
VALUES = re.compile(rb": (\S[^\n]*)")  # a value after a key on a line
NAME = re.compile(rb"name: (\S+)")

Draw = Callable[[st.SearchStrategy[Any]], Any]
Mutation = Callable[[Draw, bytes], bytes]


def _line_index(draw: Draw, lines: list[bytes]) -> int:
    index: int = draw(st.integers(0, max(len(lines) - 1, 0)))
    return index


def _replace_value(draw: Draw, text: bytes, pattern: re.Pattern[bytes], new: bytes) -> bytes:
    found = list(pattern.finditer(text))
    if not found:
        return text
    match = draw(st.sampled_from(found))
    return text[: match.start(1)] + new + text[match.end(1) :]


def _tab(draw: Draw, text: bytes) -> bytes:
    lines = text.split(b"\n")
    i = _line_index(draw, lines)
    lines[i] = b"\t" + lines[i].lstrip(b" ")
    return b"\n".join(lines)


def _duplicate_line(draw: Draw, text: bytes) -> bytes:
    lines = text.split(b"\n")
    i = _line_index(draw, lines)
    return b"\n".join([*lines[: i + 1], lines[i], *lines[i + 1 :]])


def _delete_line(draw: Draw, text: bytes) -> bytes:
    lines = text.split(b"\n")
    i = _line_index(draw, lines)
    return b"\n".join(lines[:i] + lines[i + 1 :])


def _truncate(draw: Draw, text: bytes) -> bytes:
    return text[: draw(st.integers(0, len(text)))]


def _insert(draw: Draw, text: bytes) -> bytes:
    at = draw(st.integers(0, len(text)))
    pieces = [b"\xff", b"\xc3", b"\x00", b"\x07", b"[", b"{", b'"', b"'", b"&a ", b"*a", b"- ", b": ", b"\t"]
    piece: bytes = draw(st.sampled_from(pieces))
    return text[:at] + piece + text[at:]


def _value(draw: Draw, text: bytes) -> bytes:
    new = draw(
        st.sampled_from(
            [b'"8.5"', b'"-1"', b'"1e400"', b"1e400", b"lots", b"-8", b".inf", b"null", b"[]", b"{}", b"~",
             b"!!python/object/apply:os.system [true]", b"!Ref x", b"[" * 70 + b"]" * 70, b"r" * 64,
             b"../../etc", b"/etc/passwd", b'"a\\0b"', b"yes", b"0x10", b"2026-11-28"]
        )
    )  # fmt: skip
    return _replace_value(draw, text, VALUES, new)


def _name(draw: Draw, text: bytes) -> bytes:
    new = draw(st.sampled_from([b"../x", b"/abs", b'"n\\0ul"', b"UPPER", b"a" * 254, b"-x", b"x-"]))
    return _replace_value(draw, text, NAME, new)


def _bom(draw: Draw, text: bytes) -> bytes:
    encoding = draw(st.sampled_from(["utf-8-sig", "utf-16", "utf-32"]))
    return text.decode().encode(encoding)


def _alias_bomb(draw: Draw, text: bytes) -> bytes:
    levels = b"".join(
        b"x%d: &x%d [" % (i, i) + b", ".join([b"*x%d" % (i - 1)] * 10) + b"]\n" for i in range(1, 8)
    )
    return text + b"\nx0: &x0 [lol]\n" + levels


MUTATIONS: tuple[Mutation, ...] = (
    _tab, _duplicate_line, _delete_line, _truncate, _insert, _value, _value, _name, _bom, _alias_bomb,
)  # fmt: skip


def _run(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def _outside(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under root except the project's output root and lock."""
    return {k: v for k, v in snapshot(root).items() if not k.startswith("p/out/") and k != "p/taugen.lock"}


def _outputs(root: Path) -> dict[str, tuple[bytes, int]]:
    return {k: v for k, v in snapshot(root).items() if k.startswith("p/out/") or k == "p/taugen.lock"}


def _lines(path: Path) -> int:
    data = path.read_bytes()
    return max(data.count(b"\n") + (0 if data.endswith(b"\n") else 1), 1)


def _check(root: Path, project: Path, *, valid: bool) -> int:
    """Build once; the properties every build has. Returns the exit code."""
    before = _outside(root)
    cwd = Path.cwd()
    os.chdir(project.parent)  # problems are printed relative to the working directory
    try:
        result = _run("build", "-c", project)
        validated = _run("validate", "-c", project) if result.exit_code == 0 else None
    finally:
        os.chdir(cwd)
    assert "Traceback" not in result.output and result.exit_code != 3, result.output
    assert _outside(root) == before, "a build wrote outside its output root"
    assert result.exit_code in ((0,) if valid else (0, 2)), result.output
    if validated is not None:
        assert validated.exit_code == 0, validated.output
    for line in result.output.splitlines():
        if "error:" in line and not line.startswith("  hint:"):
            match = ERROR.match(line)
            assert match, f"an error without file:line:col: {line!r}"
            where = project.parent / match["file"]
            assert where.is_file(), line
            assert 1 <= int(match["line"]) <= _lines(where), line
    return result.exit_code


@LONG
@given(fleet=fleets())
def test_valid_input_builds_and_validates_clean(fleet: Fleet) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "sibling.txt").write_text("not taugen's\n")
        (root / "p").mkdir()
        _check(root, write_fleet(root / "p", fleet), valid=True)


@LONG
@given(fleet=fleets(max_nodes=4), data=st.data())
def test_near_valid_input_is_built_or_refused_with_a_position(fleet: Fleet, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "p").mkdir()
        project = write_fleet(root / "p", fleet)
        _check(root, project, valid=True)  # a previous good build: out/ and the lock exist
        target = root / "p" / data.draw(st.sampled_from([f for f in FILES if (root / "p" / f).exists()]))
        mutation = data.draw(st.sampled_from(MUTATIONS))
        target.write_bytes(mutation(data.draw, target.read_bytes()))
        before = {k: v for k, v in snapshot(root).items() if k.startswith("p/out/") or k == "p/taugen.lock"}
        if _check(root, project, valid=False) == 2:
            after = {
                k: v for k, v in snapshot(root).items() if k.startswith("p/out/") or k == "p/taugen.lock"
            }
            assert after == before, "a refused build changed out/ or the lock"

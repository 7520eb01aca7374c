"""Read YAML (and JSON) with ruamel's round-trip loader, keeping every node's position."""

from __future__ import annotations

import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError

from taugen.core.errors import InputError, Problem, Rule
from taugen.load import fast, limits, native

Loc = Sequence[str | int]


@dataclass(frozen=True)
class Position:
    path: Path
    line: int
    col: int

    def problem(self, rule: Rule, message: str, hint: str = "") -> Problem:
        return Problem(self.path, self.line, self.col, rule, message, hint)


@dataclass(frozen=True)
class Spot:
    """A place in a document whose position is looked up only when a problem is made there: a
    lookup scans the file's events, and a WorkloadSet's thousands of runs are checked at once."""

    doc: Document
    loc: Loc
    key: bool = False

    def problem(self, rule: Rule, message: str, hint: str = "") -> Problem:
        return self.doc.at(self.loc, key=self.key).problem(rule, message, hint)


@dataclass(frozen=True)
class Document:
    """One YAML document and the file it came from.

    Loaded fast (plain data, no positions) its `text` is kept, and the first position asked
    for parses the file again with the round-trip loader: only input with a problem pays.
    """

    path: Path
    data: Any
    start: tuple[int, int] = (0, 0)  # 0-based; where a document without positions (a scalar) starts
    text: str | None = field(default=None, repr=False, compare=False)
    index: int = 0  # among the file's non-empty documents
    # lookups so far and, past a few, the document's index (fast.position)
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False, hash=False)

    def spot(self, loc: Loc, *, key: bool = False) -> Spot:
        """`at`, looked up only when a problem is made."""
        return Spot(self, loc, key)

    def at(self, loc: Loc, *, key: bool = False) -> Position:
        """Position of the value at `loc` (or of its key); the nearest existing parent otherwise."""
        if self.text is not None:
            try:
                line, col = fast.position(self.text, self.index, loc, key, self.memo)
            except fast.Unsupported:
                return _round_trip(self.path, self.text)[self.index].at(loc, key=key)
            return Position(self.path, line + 1, col + 1)
        line, col = _start(self.data) if hasattr(self.data, "lc") else self.start
        node = self.data
        last = len(loc) - 1
        for index, step in enumerate(loc):
            found = _child_position(node, step, key=key and index == last)
            if found is None:
                break
            line, col = found
            node = node[step]
        return Position(self.path, line + 1, col + 1)


def _start(node: Any) -> tuple[int, int]:
    lc = getattr(node, "lc", None)
    return (lc.line, lc.col) if lc is not None else (0, 0)


def _child_position(node: Any, step: str | int, *, key: bool) -> tuple[int, int] | None:
    lc = getattr(node, "lc", None)
    if lc is None:
        return None
    if isinstance(node, dict) and step in node:
        try:
            pos = lc.key(step) if key else lc.value(step)
        except KeyError:  # brought in by a `<<` merge key: it has no position of its own
            return None
        return (pos[0], pos[1])
    if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
        pos = lc.item(step)
        return (pos[0], pos[1])
    return None


def read_text(path: Path, early: native.Early | None = None) -> str:
    """File text as UTF-8 (a UTF-8 byte-order mark is dropped); a problem at the first
    undecodable byte otherwise. Too large or too deeply nested text is refused (limits).
    `early`: an early start (issue 36); when it read this very text, the text is its copy, and
    its child's bound of the depth stands for check_text's."""
    text = _decoded(path, read_bounded(path))
    if early is not None and early.of(text):
        text = early.text  # one copy held, not two
        if early.depth_cleared():
            return text
    limits.check_text(path, text)
    return text


def read_bounded(path: Path) -> bytes:
    """A regular file's bytes, at most the size limit (limits.MAX_BYTES): a larger file is refused
    before it is read, and reading stops one byte past the limit (it grew while being read)."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):  # /dev/zero, a FIFO: never read without end (issue 17)
            raise InputError([Problem(path, 0, 0, "io", "not a regular file", "name a regular file")])
        limits.check_size(path, info.st_size)
        with path.open("rb") as file:
            raw = file.read(limits.MAX_BYTES + 1)
        limits.check_size(path, len(raw))
    except FileNotFoundError:
        raise InputError([Problem(path, 0, 0, "io", "file not found", "check the path")]) from None
    except OSError as err:
        raise InputError(
            [Problem(path, 0, 0, "io", f"cannot read: {err.strerror}", "check the path and its permissions")]
        ) from None
    return raw


_WIDE_BOMS = {  # longest first: the UTF-32 LE mark starts with the UTF-16 LE one
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}


def _decoded(path: Path, raw: bytes) -> str:
    for bom, encoding in _WIDE_BOMS.items():
        if raw.startswith(bom):
            message = f"the file is {encoding} (it starts with a {encoding} byte-order mark), not UTF-8"
            raise InputError([Problem(path, 1, 1, "yaml", message, "save it as UTF-8")])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        before = raw[: err.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        col = len(raw[line_start : err.start].decode("utf-8", errors="replace")) + 1
        raise InputError(
            [Problem(path, line, col, "yaml", "the file is not UTF-8", "save it as UTF-8")]
        ) from None


def load_documents(path: Path, early: native.Early | None = None) -> list[Document]:
    """Every non-empty document of a YAML stream; duplicate keys are errors. `early`: an early
    start of this file's parse (issue 36), taken only for the very text read here."""
    return fast_documents(path, read_text(path, early), early)


def fast_documents(path: Path, text: str, early: native.Early | None = None) -> list[Document]:
    """Plain data from yaml-rs where it reads as the event loader does (native.py, issue 36), else
    from libyaml with ruamel's YAML 1.2 rules (fast.py); positions on demand either way. Input the
    fast loader refuses is parsed again with the round-trip loader, which reports the problem
    with its position."""
    kept = native.load_all(text, timestamps=True, early=early)
    if kept is None:
        try:
            docs = fast.load_all(text)
        except fast.Unsupported:
            return parse_documents(path, text)
        kept = [d for d in docs if d is not None]
    if "&" in text:  # once per file: a tree file holds thousands of documents (issue 6)
        for doc in kept:
            limits.check_data(path, text, doc)
    return [Document(path, d, text=text, index=i) for i, d in enumerate(kept)]


@lru_cache(maxsize=8)
def _round_trip(path: Path, text: str) -> list[Document]:
    return parse_documents(path, text)


def parse_documents(path: Path, text: str) -> list[Document]:
    """The non-empty documents of `text` (named `path` in problems), with positions."""
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    yaml.composer.warn_double_anchors = False  # YAML 1.2: a later anchor of the name wins
    # Depth first (the round-trip parser's time grows with its square), then tags (it would
    # build what one asks for) and aliases; the scan stops at the first limit crossed.
    limits.check_events(path, text)
    try:
        docs = list(yaml.load_all(text))
    except YAMLError as err:
        raise InputError([_unreadable(path, text, err)]) from None
    except (ValueError, IndexError):  # ruamel crashes on plain scalars such as `-_` or `._`
        raise InputError([_unreadable_number(path, yaml, text)]) from None
    starts = _scalar_starts(yaml, text) if any(not hasattr(d, "lc") for d in docs if d is not None) else {}
    return [Document(path, d, starts.get(i, (0, 0))) for i, d in enumerate(docs) if d is not None]


def _unreadable(path: Path, text: str, err: YAMLError) -> Problem:
    """Where and why the round-trip loader could not read `text`."""
    if isinstance(err, MarkedYAMLError):
        return _conflict_problem(path, text) or _yaml_problem(path, err, text)
    if isinstance(err, ReaderError):  # a control character (NUL, ...) YAML does not allow in a file
        return _character_problem(path, text, err)
    first = str(err).splitlines()[0] if str(err) else "invalid YAML"
    return Problem(path, 1, 1, "yaml", f"invalid YAML: {first}", "fix the YAML syntax")


def _unreadable_number(path: Path, yaml: YAML, text: str) -> Problem:
    """The first plain scalar that YAML 1.2 calls a number but that is none (`-_`, `._`, more
    digits than Python converts); or the syntax error after it, which a construction that
    stopped at the number never reached."""
    try:
        roots = list(yaml.compose_all(text))
    except YAMLError as err:
        return _unreadable(path, text, err)
    for node in fast.scalar_nodes(roots):
        if fast.unreadable_number(str(getattr(node.tag, "value", node.tag)), node.value):
            mark = node.start_mark
            return Problem(
                path,
                mark.line + 1,
                mark.column + 1,
                "yaml",
                f"{node.value!r} looks like a number but is none",
                "quote it to make it a string",
            )
    return Problem(path, 1, 1, "yaml", "a value YAML cannot read", "quote unusual plain scalars")


def _scalar_starts(yaml: YAML, text: str) -> dict[int, tuple[int, int]]:
    """Scalar documents carry no position: compose the stream again to find where each starts."""
    nodes = list(yaml.compose_all(text))
    return {i: (n.start_mark.line, n.start_mark.column) for i, n in enumerate(nodes) if n is not None}


def load_one(path: Path, early: native.Early | None = None) -> Document:
    docs = load_documents(path, early)
    if not docs:
        raise InputError([Problem(path, 1, 1, "yaml", "the file is empty", "write the document into it")])
    if len(docs) > 1:
        raise InputError(
            [
                docs[1]
                .at([])
                .problem(
                    "yaml",
                    f"the file holds {len(docs)} YAML documents; one is expected",
                    "remove the extra documents, or split them into files of their own",
                )
            ]
        )
    return docs[0]


def _character_problem(path: Path, text: str, err: ReaderError) -> Problem:
    at = err.position if isinstance(err.position, int) else 0
    line, col = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
    shown = f"#x{err.character:04x}" if isinstance(err.character, int) else repr(err.character)
    message = f"character {shown} is not allowed in a YAML file"
    return Problem(
        path, line, col, "yaml", message, 'remove it; in a double-quoted string write it as an escape ("\\0")'
    )


# A line Git leaves in a conflicted file: the marker alone, or followed by a space and a label.
_CONFLICT = re.compile(r"^(<{7}|={7}|>{7}|\|{7})(?:[ \t].*)?\r?$", re.MULTILINE)
CONFLICT_HINT = (
    "resolve it, then run taugen again: keep the side you want (or both) "
    "and delete the `<<<<<<<`, `=======` and `>>>>>>>` lines"
)


def _conflict_problem(path: Path, text: str) -> Problem | None:
    """Issue 34: a YAML file that does not parse because a merge left Git's conflict markers
    in it is reported at the first marker, not as the syntax error the marker causes."""
    found = _CONFLICT.search(text)
    if found is None:
        return None
    line = text.count("\n", 0, found.start()) + 1
    message = f"unresolved Git merge conflict (a `{found.group(1)}` line Git left in the file)"
    return Problem(path, line, 1, "yaml", message, CONFLICT_HINT)


def _yaml_problem(path: Path, err: MarkedYAMLError, text: str) -> Problem:
    problem = (err.problem or "invalid YAML").strip()
    # At the end of the stream the problem mark lies past the last line: the context mark
    # (where the unclosed quote or collection began) is the line to fix.
    at_end = ("end of stream" in problem or "'<stream end>'" in problem) and err.context_mark is not None
    mark = err.context_mark if at_end else err.problem_mark or err.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    lines = text.splitlines() or [""]
    if line > len(lines):  # a mark past the last line (the stream ended): the end of the last line
        line, col = len(lines), len(lines[-1]) + 1
    if "duplicate key" in problem or "found duplicate key" in str(err):
        return Problem(path, line, col, "yaml", problem, "remove one of the duplicate keys")
    context = f"{problem} ({err.context.strip()})" if err.context else problem
    for words, plain, hint in _PLAIN:  # issue 21: what the parser means, in plain words
        if words in problem or words in context:
            return Problem(path, line, col, "yaml", f"{plain} (YAML: {context})", hint)
    return Problem(path, line, col, "yaml", context, "fix the YAML syntax")


_PLAIN = (  # (the parser's words, what they mean, how to fix it)
    ("'\\t'", "a tab in the indentation", "indent with spaces: YAML does not allow tabs there"),
    (
        "expected <block end>, but found",
        "this line is indented differently from the lines it belongs with",
        "indent it with as many spaces as its siblings above",
    ),
    (
        "mapping values are not allowed here",
        "a `key: value` where none can start",
        "put a space after the `:` of the key above, quote a value that holds `: `, or fix the indentation",
    ),
    ("could not find expected ':'", "a line that is neither `key: value` nor a list item", "add the `:`"),
    ("while scanning a quoted scalar", "a quote that is never closed", "close the quote that starts here"),
    (
        "expected ',' or ']'",
        "a `[...]` list that is not closed",
        "close the list with `]`, or separate its items with `,`",
    ),
    (
        "expected ',' or '}'",
        "a `{...}` mapping that is not closed",
        "close the mapping with `}`, or separate its entries with `,`",
    ),
)

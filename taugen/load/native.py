"""The happy path (issue 36): yaml-rs, a native YAML 1.2 parser, for text with nothing unusual in it.

Positions are only needed when there is a problem to report, and they are found then, by walking
libyaml's events to the one path asked for (positions.py, `Document.at`). So a file of plain data
need not go through libyaml's events at all: yaml-rs builds the same dicts, lists and scalars in
Rust, three to five times faster (docs/performance.md, "Issue 36: the parser").

The data must equal what `fast.load_all` (libyaml taught ruamel's YAML 1.2 rules) gives, or a
problem would be reported against other data than the one validated. yaml-rs differs from it on
some inputs, so `load_all` takes only text in which a cheap scan finds none of them; everything
else returns None and the caller reads the file as before, which also reports any problem with
its position:

- a tag, an anchor, an alias or a merge key (`!`, `&`, `*`, `<<` where a token starts): yaml-rs
  drops unknown tags, expands aliases into copies and keeps `<<` as a key;
- a directive (`%YAML`): the old loader honours the version;
- a backslash escape other than JSON's: YAML's own escapes (`\\x`, `\\N`, `\\_`, ...) and
  surrogate pairs are read differently or refused by libyaml;
- a character libyaml does not allow or reads as a line break (C0/C1 controls, NEL, U+2028,
  U+2029, a byte-order mark inside the text);
- a plain scalar with an underscore where a number's digits start (`_1`, `-_`, `0x_`) or in an
  exponent (`1e_3`): yaml-rs reads a number or a string where ruamel's table says otherwise;
- for the inputs' reader, a plain timestamp (see `load_all`);
- numbers ruamel's table does not know: `0X1F`, `0O17`, `0B1`, `.5e3`, `1e3_0`;
- a block scalar with no line before its document ends (libyaml reads "", yaml-rs a newline);
- a tab in a line's indentation, or a block scalar the stream ends without a newline;
- a run of over 4,000 digits (some from 2,000 on): Python refuses an int of 4,300, yaml-rs reads it;
- a lone `=` (ruamel's `value` tag), a `?` explicit key or a flow collection as a key: not data
  taugen reads, and not read alike;
- a line broken by a carriage return alone (the document markers are looked for after `\\n`);
- `...`, or document markers whose count does not say how many documents the stream holds (yaml-rs
  gives one document's list and a stream of documents alike).

Known and left: a flow collection as a key inside a flow mapping (`{a: 1, [b]: 2}`, `{k: , {e}}`),
legal YAML 1.2 that libyaml refuses, is read by yaml-rs (its keys become tuples); telling a flow
mapping's `, [` from a flow sequence's (every JSON list of objects) needs a parse.

Any error yaml-rs raises (a duplicate key, a syntax error) also returns None: the old loader finds
the same problem and reports it as before. `tests/property/test_native_loader.py` holds the two
equal on every YAML file the tests have and on generated documents full of YAML 1.2 edge cases.
"""

from __future__ import annotations

import os
import re
import threading
from functools import partial
from typing import Any

from taugen.core.forked import Started, beside, started
from taugen.load import limits

# yaml-rs allocates its parse with its own mimalloc, which by default keeps freed pages resident
# until later allocations in the same heap purge them; none come, so a 30 MB inventory's parse
# stayed resident (about 90 MiB) through the whole build and raised its peak from 715 to 805 MiB
# (docs/performance.md, "Issue 36: where it stands"). mimalloc reads its options from the
# environment once, when the library is loaded: purge at once, then leave the environment (and
# so the child processes, git) as it was. A value the user set is kept.
_PURGE = "MIMALLOC_PURGE_DELAY"
_SET = _PURGE not in os.environ
if _SET:
    os.environ[_PURGE] = "0"
try:
    import yaml_rs
finally:
    if _SET:
        del os.environ[_PURGE]

# Each pattern starts with the one character it is about, so that the scan jumps from one of them
# to the next (a pattern that may match anywhere costs a third of yaml-rs's parse on a 30 MB file).
_SCANS = [
    re.compile(r"!(?<=[\s\[\]{},:]!)"),  # a tag, where a token starts
    re.compile(r"&(?<=[\s\[\]{},:]&)"),  # an anchor
    _ALIAS := re.compile(r"\*(?<=[\s\[\]{},:]\*)"),  # an alias
    re.compile(r"\\(?![\"\\/bfnrt]|u(?![dD][89abAB]))"),  # an escape JSON does not have
    re.compile(r"\?(?<=[\s\[{,]\?)"),  # an explicit key (libyaml takes `[?x]` for one too)
    # `|` or `>` where a token starts but no block scalar's header: YAML 1.2 plain, libyaml refuses
    *(
        re.compile(rf"{c}(?:(?<=[\[{{,]{c})|(?<=\s{c})(?![-+1-9]*[ \t]*(?:#|\r?\n|\Z)))")
        for c in (r"\|", ">")
    ),
    re.compile(r":(?<=[\]}]:)"),  # a flow collection as a key
    re.compile(r":(?:(?<=[\s\[{,]:)|(?=[,\]}?]))"),  # `[:x]`, `[x:]`, ` : x`: libyaml refuses
    # an underscore where a number's digits or its exponent start: `_1`, `-_`, `._`, `0x_`, `1e_3`
    re.compile(r"_(?:(?<![\w.]_)|(?<=[-+.]_)|(?<=0[xXoObB]_)|(?<=[eE]_)|(?<=[eE][-+]_))"),
]
_NUMBERS = [  # spellings ruamel's table calls strings and yaml-rs numbers
    *(  # `0X1F`, `0O17`, `0B1`
        re.compile(rf"{c}(?:(?<=[\s\[{{,:]0{c})|(?<=[\s\[{{,:][-+]0{c}))") for c in "XOB"
    ),
    re.compile(r"\.(?:(?<=[\s\[{,:]\.)|(?<=[\s\[{,:][-+]\.))[0-9_]+[eE]"),  # `.5e3`
]
# Each scan with the one character its matches start with: `in` finds a character at memchr's
# speed, a regex's search for its first one at a fifth of it (issue 36: 30 MB, most absent).
_LEADS = [(s.pattern[1] if s.pattern[0] == "\\" else s.pattern[0], s) for s in _SCANS + _NUMBERS]
# In the text reversed (so that the pattern starts with its literal): an underscore in an exponent,
# `1e3_0` (ruamel's exponents are digits only).
_EXPONENT_UNDERSCORE = re.compile(r"_[0-9_]*[-+]?[eE][0-9._]")
# A block scalar with no line of its own before the stream, or its document, ends: libyaml reads
# "", yaml-rs a newline.
_BLOCK = re.compile(r"[|>][-+1-9]*[ \t]*(?:#[^\n]*)?(?:\r?\n|\Z)\s*(?:\Z|---|\.\.\.|#)")
_TAB_INDENT = re.compile(r"^ *\t", re.M)  # a tab in the indentation: libyaml refuses, yaml-rs reads
_VALUE = re.compile(r"=(?<=[\s\[{,]=)(?=[\s\]},]|\Z)")  # ruamel's `value` tag: inputs only
_FLOW_KEY = re.compile(r"[\]}][ \t]*:")  # only when a blank comes before a `:` somewhere
_BLANK_COLON = re.compile(r":(?<=[ \t]:)")
_STARTS = ("!", "&", "*", "%", "?", "=", "...", "<<", ":", "|", ">")
_LINES = (("%", "\n%"), ("<", "<<"), ("...", "\n..."))  # (a quick test, the one that tells)
_CONTROLS = tuple(chr(c) for c in (*range(9), 11, 12, *range(14, 32), 127))  # each a memchr: faster than re
_NOT_ASCII = re.compile(
    "[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
_TIMESTAMP = re.compile(r"-(?<=[\s\[\]{},:][0-9]{4}-)[0-9]")  # plain: a quoted one follows a quote
_STARTS_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]")
_STEP = 2000  # a run of over twice _STEP digits (Python reads ints of up to 4,300) spans two samples
_DIGIT_PAIR = re.compile(r"(?=[0-9_]{2})")
_DIGITS = re.compile(r"[0-9_]*")
_REFUSE = yaml_rs.DuplicateKeyPolicy.Error  # the default since 0.1.x; said, not assumed
_REFUSED = object()  # what _parsed gives for a text yaml-rs refuses
_NOT_STARTED = object()  # what Early.take gives once taken
BESIDE_FROM = 4 << 20  # characters: below, the fork costs about what scanning beside the parse saves
_MARKER = re.compile(r"\n---(?=\s|\Z)")  # the newline before it first: a literal the scan jumps to
_BEFORE = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\r?\n)*")  # blank and comment lines only


def plain(text: str, *, inputs: bool = True) -> bool:
    """Whether the text holds none of what yaml-rs and the old loader read differently
    (`inputs`: as the inputs' reader reads it, which also knows ruamel's `value` tag and timestamps)."""
    if text.startswith(_STARTS) or any(c in text and s in text for c, s in _LINES):
        return False
    if "\r" in text and text.count("\r") != text.count("\r\n"):  # a line broken by CR alone
        return False
    if any(lead in text and scan.search(text) for lead, scan in _LEADS):
        return False
    if re.match(r"[-+]?(?:0[XOB]|\.[0-9_]+[eE])", text) or (
        "_" in text and _EXPONENT_UNDERSCORE.search(text[::-1])
    ):
        return False
    if ("|" in text or ">" in text) and (not text.endswith("\n") or _BLOCK.search(text)):
        return False  # yaml-rs ends a block scalar cut off by the stream's end with a newline
    if "\t" in text and _TAB_INDENT.search(text):
        return False
    if _BLANK_COLON.search(text) and _FLOW_KEY.search(text):
        return False
    if any(c in text for c in _CONTROLS) if text.isascii() else _NOT_ASCII.search(text):
        return False
    if inputs and (_VALUE.search(text) or _TIMESTAMP.search(text) or _STARTS_TIMESTAMP.match(text)):
        return False
    return not _long_number(text)


def _long_number(text: str) -> bool:
    """Whether a run of digits (and underscores) longer than _STEP may be in the text."""
    for found in _DIGIT_PAIR.finditer(text[::_STEP]):
        at = found.start() * _STEP
        if _DIGITS.fullmatch(text, at, at + _STEP + 1):
            return True
    return False


def load_all(text: str, *, timestamps: bool, early: Early | None = None) -> list[Any] | None:
    """The non-empty documents of `text`, as `fast.load_all` gives them; None when the old loader
    must read the text. `timestamps`: the reader makes YAML 1.2's plain timestamps datetimes (the
    inputs' loader), so text with one steps aside: yaml-rs's `parse_datetime` makes quoted ones
    datetimes too. Without, they are strings, as the tree reader reads them. `early`: what an
    early start began (issue 36), taken if it was started for this very text."""
    data = _cleared(text, timestamps, early)
    if data is _REFUSED:
        return None
    markers = [m.start() + 1 for m in _MARKER.finditer(text)]
    if _MARKER.match("\n" + text[:4]):
        markers.insert(0, 0)
    if not markers or (len(markers) == 1 and _BEFORE.fullmatch(text, 0, markers[0])):
        docs = [data]  # one document (a list is that document's, not a stream's)
    else:
        count = len(markers) + (0 if _BEFORE.fullmatch(text, 0, markers[0]) else 1)
        if type(data) is not list or len(data) != count:
            return None
        docs = data
    return [d for d in docs if d is not None]


# Issue 36: a large inventory read before `taugen build` imports its modules (context/early.py),
# parsed by yaml-rs on a thread meanwhile (yaml-rs lets go of the GIL while it parses: a thread
# spinning beside it keeps 97 % of its speed) and scanned by a forked child. The CLI holds what
# was started and hands it down to the loader (read_text, load_all), which takes it only for the
# very text it reads itself.
_INDENT = rf"[ \t?:-]{{{limits.MAX_DEPTH - 1},}}"  # a line led so deep: block nesting past the limit
_DEEP_BLOCK = re.compile(rf"\n{_INDENT}")  # the newline first: the engine jumps from one to the next


class Early:
    """A text's parse and scan, started before anyone asked for them (`start`)."""

    def __init__(self, text: str, verdict: Started[tuple[bool, bool]] | None) -> None:
        self.text = text
        self._verdict = verdict  # the child's: depth within the limit, `plain`
        self._parsed: list[Any] = []  # yaml-rs's parse (or _REFUSED), once the thread is done
        self._thread = threading.Thread(target=lambda: self._parsed.append(_parsed(text)), daemon=True)
        self._thread.start()
        self._taken = False

    def of(self, text: str) -> bool:
        """Whether this was started for `text` (the loader's own read of the file)."""
        return self.text is text or self.text == text

    def depth_cleared(self) -> bool:
        """Whether the child found the text's nesting within the limit (limits.check_text would
        pass it); False when it gave no verdict."""
        verdict = self._verdict_given()
        return verdict is not None and verdict[0]

    def take(self) -> Any:
        """The parse if the scan cleared the text, else _REFUSED; _NOT_STARTED once taken before."""
        if self._taken:
            return _NOT_STARTED
        self._taken = True
        self._thread.join()
        verdict = self._verdict_given()
        cleared = plain(self.text, inputs=True) if verdict is None else verdict[1]
        return self._parsed[0] if cleared and self._parsed else _REFUSED

    def _verdict_given(self) -> tuple[bool, bool] | None:
        """The child's verdict, waited for; None when no child was had or it gave none."""
        return None if self._verdict is None else self._verdict.result()

    def end(self) -> None:
        """The command is over: a child still at work is ended and reaped (the thread ends with
        its parse)."""
        if self._verdict is not None:
            self._verdict.end()


def start(text: str) -> Early | None:
    """Parse and scan an inventory's text from now on, for a later load_all of the same text.

    The parse comes before the depth bound here, so nesting that could crash yaml-rs (block
    nesting thousands deep) is ruled out first, and text yaml-rs would expand (aliases) is left
    to the loader, as _cleared leaves it; so is a text too small to pay for the fork."""
    if _not_beside(text):
        return None
    if re.match(_INDENT, text) or _DEEP_BLOCK.search(text):
        return None
    return Early(text, started(partial(_verdict, text)))  # forked before the thread starts


def parse(text: str) -> Any:
    """yaml-rs's parse of a small text whose depth was bounded, None where it refuses the text
    (context/early.py: the inventories a project file names, a guess the loader checks)."""
    data = _parsed(text)
    return None if data is _REFUSED else data


def _verdict(text: str) -> tuple[bool, bool]:
    return not limits.too_deep(text), plain(text, inputs=True)


def _cleared(text: str, timestamps: bool, early: Early | None) -> Any:
    """yaml-rs's parse of a text `plain` clears, else _REFUSED.

    A large text is scanned by a forked child while yaml-rs parses it here (issue 36: at 100,000
    nodes the scan is 0.3 s of a 0.9 s parse); the parse is then kept only if the scan clears it.
    Only an alias must be ruled out first: yaml-rs expands each into a copy, so a small text of
    aliases could fill the memory before the scan's answer came. (The nesting depth is bounded
    before any parse, by limits.check_text: yaml-rs crashes on block nesting thousands deep.)"""
    if timestamps and early is not None and early.of(text) and (data := early.take()) is not _NOT_STARTED:
        return data
    scan = partial(plain, text, inputs=timestamps)
    if _not_beside(text):
        return _parsed(text) if scan() else _REFUSED
    data, cleared = beside(partial(_parsed, text), scan)  # no verdict from a child: scan here
    return data if (scan() if cleared is None else cleared) else _REFUSED


def _not_beside(text: str) -> bool:
    """Whether the text is scanned before it is parsed, not beside: too small to pay for a fork,
    or with aliases, which yaml-rs expands each into a copy before the scan's answer could come."""
    return len(text) < BESIDE_FROM or ("*" in text and _ALIAS.search(text) is not None)


def _parsed(text: str) -> Any:
    """yaml-rs's parse of the whole text, or _REFUSED for any error (the old loader reports it)."""
    try:
        return yaml_rs.loads(text, parse_datetime=False, duplicate_key_policy=_REFUSE)
    except (yaml_rs.YAMLDecodeError, ValueError, TypeError, OverflowError, RecursionError):
        return _REFUSED

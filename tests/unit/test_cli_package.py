"""Issue 33: the CLI is a package of small modules, none over 250 code lines, none with
module-level mutable state (STYLE.md: no global state; click's context carries an invocation's).

Code lines are the lines that hold a token other than a comment, and are not in a docstring.
Mutable state is a module-level (or class-level) assignment of a list, dict or set display or
comprehension, or of a call that makes a mutable container; or a `global` statement anywhere.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parents[2] / "taugen" / "cli"
MODULES = sorted(CLI.glob("*.py"))
MAX_CODE_LINES = 250
MUTABLE_DISPLAYS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
MUTABLE_CALLS = frozenset(
    {"list", "dict", "set", "bytearray", "defaultdict", "OrderedDict", "Counter", "deque", "ChainMap"}
)
NOT_CODE = frozenset(
    {
        tokenize.COMMENT,
        tokenize.NL,
        tokenize.NEWLINE,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENCODING,
        tokenize.ENDMARKER,
    }
)


def code_lines(source: str) -> int:
    """Lines with a token that is not a comment, outside docstrings."""
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in NOT_CODE:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines - _docstring_lines(ast.parse(source)))


def _docstring_lines(tree: ast.Module) -> set[int]:
    owners = [
        tree,
        *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)),
    ]
    found: set[int] = set()
    for owner in owners:
        first = owner.body[0] if owner.body else None
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            found.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return found


def mutable_state(source: str) -> list[str]:
    """`line: what` for each module-level mutable binding and each `global` statement."""
    tree = ast.parse(source)
    found = [f"{node.lineno}: global" for node in ast.walk(tree) if isinstance(node, ast.Global)]
    for node in _module_level(tree.body):
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) else None
        if value is not None and _mutable(value):
            found.append(f"{node.lineno}: {ast.unparse(value)[:40]}")
    return sorted(found, key=lambda f: int(f.split(":")[0]))


def _module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements run at import: the module's, in its if/try/with blocks and class bodies."""
    found: list[ast.stmt] = []
    for node in body:
        found.append(node)
        if isinstance(node, ast.If | ast.For | ast.While):
            found += _module_level(node.body) + _module_level(node.orelse)
        elif isinstance(node, ast.With | ast.ClassDef):
            found += _module_level(node.body)
        elif isinstance(node, ast.Try):
            handlers = [s for h in node.handlers for s in h.body]
            found += _module_level([*node.body, *handlers, *node.orelse, *node.finalbody])
    return found


def _mutable(value: ast.expr) -> bool:
    if isinstance(value, MUTABLE_DISPLAYS):
        return True
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name in MUTABLE_CALLS


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_a_cli_module_is_small_and_holds_no_mutable_state(path: Path) -> None:
    source = path.read_text()
    assert (code_lines(source) <= MAX_CODE_LINES, mutable_state(source)) == (True, [])


def test_the_cli_is_a_package_of_several_modules() -> None:
    assert len(MODULES) >= 10 and not (CLI.parent / "cli.py").exists()


def test_code_lines_leave_out_blank_lines_comments_and_docstrings() -> None:
    sample = '''"""A module docstring,
over two lines."""

# a comment
X = 1  # a comment after code counts as code


def f(a: int) -> str:
    """A docstring."""

    text = """a multi-line string
that is not a docstring"""
    return (
        text
    )


class C:
    """Its docstring."""
'''
    assert code_lines(sample) == 8  # X, def, text (2 lines), return (3 lines), class
    assert code_lines("X = 1\n" * (MAX_CODE_LINES + 1)) == MAX_CODE_LINES + 1


def test_mutable_state_is_found_where_it_is_and_constants_pass() -> None:
    sample = """import collections
from collections import defaultdict

FROZEN = frozenset({"a"})
NAMES = ("a", "b")
LIMIT: int = 3
SEEN = set()
CACHE: dict[str, int] = {}
COPIES = [n for n in NAMES]
BY_NAME = defaultdict(list)
COUNTS = collections.Counter()
if LIMIT:
    LATE = []


class Holder:
    registry = {}


def f() -> None:
    local = []
    global LIMIT
    LIMIT = len(local)
"""
    assert mutable_state(sample) == [
        "7: set()",
        "8: {}",
        "9: [n for n in NAMES]",
        "10: defaultdict(list)",
        "11: collections.Counter()",
        "13: []",
        "17: {}",
        "22: global",
    ]

"""The hot path: libyaml's C parser (PyYAML's CSafeLoader) taught ruamel's YAML 1.2 rules.

ruamel's C loader still resolves every scalar in Python, and slowly (issue 6: 5 s of a 10 s
build of 10,000 nodes); libyaml through PyYAML is the fastest loader installed. The data must
equal what ruamel's round-trip loader gives, because positions come from that loader: the
implicit resolvers are ruamel's own YAML 1.2 table, the scalar constructors follow ruamel's
1.2 rules, and `tests/property/test_fast_loader.py` compares the two. Anything this loader
does not handle the way ruamel would (a duplicate key, a `%YAML` directive, an unknown tag,
a syntax error) raises `Unsupported`, and the caller falls back to ruamel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache, partial
from typing import Any, ClassVar

import yaml
from ruamel.yaml.resolver import implicit_resolvers

from taugen.load import events, positions

YAML_1_2 = (1, 2)


class Unsupported(Exception):
    """The input needs ruamel's loader: for its problem's position or its YAML version."""


def _int(loader: yaml.CSafeLoader, node: yaml.ScalarNode) -> int:
    return _int_text(str(loader.construct_scalar(node)))


def _int_text(text: str) -> int:
    text = text.replace("_", "")
    sign = -1 if text[0] == "-" else 1
    text = text.lstrip("+-")
    for prefix, base in (("0b", 2), ("0x", 16), ("0o", 8)):
        if text.startswith(prefix):
            return sign * int(text[2:], base)
    return sign * int(text)  # YAML 1.2: a leading zero is not octal


def _float(loader: yaml.CSafeLoader, node: yaml.ScalarNode) -> float:
    return _float_text(str(loader.construct_scalar(node)))


def _float_text(text: str) -> float:
    text = text.replace("_", "").lower()
    sign = -1.0 if text[0] == "-" else 1.0
    text = text.lstrip("+-")
    if text == ".nan":
        return float("nan")
    return sign * float("inf" if text == ".inf" else text)


def _map(loader: yaml.CSafeLoader, node: yaml.MappingNode) -> Any:
    data: dict[Any, Any] = {}
    yield data
    merged = any(key.tag == "tag:yaml.org,2002:merge" for key, _ in node.value)
    data.update(loader.construct_mapping(node))
    if len(data) != len(node.value) and not merged:
        raise Unsupported("duplicate key")  # ruamel reports it, with its position


def _refuse(loader: yaml.CSafeLoader, node: yaml.Node) -> Any:
    raise Unsupported(f"tag {node.tag}")


class FastLoader(yaml.CSafeLoader):
    # Own tables, not the parent's: PyYAML's are YAML 1.1 ("yes" is true, 017 is octal).
    yaml_implicit_resolvers: dict[Any, list[tuple[str, Any]]] = {}  # noqa: RUF012
    yaml_constructors: ClassVar[dict[Any, Any]] = dict(yaml.CSafeLoader.yaml_constructors)


for _versions, _tag, _pattern, _first in implicit_resolvers:
    if YAML_1_2 in _versions:
        FastLoader.add_implicit_resolver(_tag, _pattern, _first)
FastLoader.add_constructor("tag:yaml.org,2002:int", _int)
FastLoader.add_constructor("tag:yaml.org,2002:float", _float)
FastLoader.add_constructor("tag:yaml.org,2002:map", _map)
FastLoader.add_constructor(None, _refuse)
_RESOLVER = FastLoader("")


def unreadable_number(tag: str, value: str) -> bool:
    """A scalar resolved as int or float that no number parser reads (`-_`, `._`)."""
    convert = {"tag:yaml.org,2002:int": _int_text, "tag:yaml.org,2002:float": _float_text}.get(tag)
    try:
        return convert is not None and convert(value) is None
    except ValueError:
        return True


def scalar_nodes(roots: Iterable[Any]) -> Iterator[Any]:
    """Every scalar node under composed (ruamel or PyYAML) roots, in document order."""
    stack = [r for r in reversed(list(roots)) if r is not None]
    while stack:
        node = stack.pop()
        if isinstance(node.value, str):
            yield node
        elif isinstance(node.value, list):
            children = [c for item in node.value for c in (item if isinstance(item, tuple) else (item,))]
            stack.extend(reversed(children))


@lru_cache(maxsize=1 << 16)
def reads_as_string(value: str) -> bool:
    """Whether `value`, written plain, is a string to a YAML 1.2 reader (and to taugen)."""
    tag: str = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    return tag == "tag:yaml.org,2002:str"


def load_all(text: str, loader_class: type[FastLoader] = FastLoader) -> list[Any]:
    """Every document of `text` as plain data; `Unsupported` when ruamel must do it."""
    if text.startswith("%") or "\n%" in text:
        raise Unsupported("a directive: ruamel honours %YAML versions")
    try:
        try:
            loader = loader_class(text)
            return events.load_all(loader, partial(_scalar, loader))
        except events.Compose:  # a merge key or a tagged collection: PyYAML's composer knows them
            _check_tags(text)
            return list(yaml.load_all(text, Loader=loader_class))
    except events.Foreign as err:
        raise Unsupported(f"tag {err}: ruamel's scan refuses it with its position") from None
    except events.Duplicate:
        raise Unsupported("duplicate key") from None  # ruamel reports it, with its position
    except (yaml.YAMLError, LookupError, ValueError, TypeError) as err:  # `-_`; a list key; *undefined
        raise Unsupported(str(err)) from None


def yaml11_documents(text: str) -> list[Any]:
    """Every document as libyaml reads YAML 1.1 (PyYAML's CSafeLoader), for the files other
    tools write and kubectl reads by go-yaml's 1.1 rules: the CRDs `validate --crd` is given.
    libyaml is required (FastLoader is its parser): there is no pure-Python fallback to pick."""
    return list(yaml.load_all(text, Loader=yaml.CSafeLoader))


def _check_tags(text: str) -> None:
    """The composing loader would build any tag SafeLoader knows (!!binary, !!set): refuse first."""
    for event in yaml.parse(text, Loader=FastLoader):
        if isinstance(event, yaml.NodeEvent):
            events.check_tag(getattr(event, "tag", None))


INDEX_AFTER = 8  # lookups in one document walked from its start; then it is indexed once


def position(
    text: str, index: int, loc: Sequence[str | int], key: bool, memo: dict[str, Any] | None = None
) -> tuple[int, int]:
    """0-based line and column of `loc` in the `index`-th non-empty document (positions.py).

    `memo` (one per document) counts the lookups: past INDEX_AFTER the document is indexed in one
    walk and every later lookup answered from it (issue 32: many problems in one file, each a walk
    from its start, were quadratic)."""
    if memo is not None:
        memo["lookups"] = memo.get("lookups", 0) + 1
        if memo["lookups"] > INDEX_AFTER and (found := _indexed(text, index, memo)) is not None:
            try:
                return found.position(loc, key)
            except (LookupError, ValueError, TypeError) as err:
                raise Unsupported(str(err)) from None
    loader = FastLoader(text)
    try:
        return positions.position(loader, partial(_scalar, loader), index, loc, key)
    except _WALK_ERRORS as err:
        raise Unsupported(str(err)) from None


_WALK_ERRORS = (yaml.YAMLError, events.Compose, LookupError, ValueError, IndexError, TypeError)


def _indexed(text: str, index: int, memo: dict[str, Any]) -> positions.Index | None:
    """The document's index, built once; None when it cannot be (then each lookup walks)."""
    if "index" not in memo:
        loader = FastLoader(text)
        try:
            memo["index"] = positions.Index(loader, partial(_scalar, loader), index)
        except _WALK_ERRORS:
            memo["index"] = None
    found: positions.Index | None = memo["index"]
    return found


_PLAIN: dict[str, Callable[[str], Any]] = {
    "tag:yaml.org,2002:int": _int_text,
    "tag:yaml.org,2002:float": _float_text,
    "tag:yaml.org,2002:bool": lambda text: text.lower() == "true",  # YAML 1.2: true or false only
    "tag:yaml.org,2002:null": lambda text: None,
}


def _scalar(loader: FastLoader, tag: str, value: str) -> Any:
    plain = _PLAIN.get(tag)
    if plain is not None:
        return plain(value)
    construct = loader.yaml_constructors.get(tag, _refuse)  # timestamps, binary; other tags refused
    return construct(loader, yaml.ScalarNode(tag, value))

"""CEL rules of CRDs (`x-kubernetes-validations`), evaluated as the API server would (issue 20).

Each rule runs where the API server runs it: at its schema node, on every value the object
has there (`self`), after nulls are pruned and the schema's defaults applied (celrules.py).
A rule that is false, or fails as the API server's would (`no such key`: a field the rule
reads is unset), is a finding (rule id `cel`) with the rule's message at the value.

cel-python implements standard CEL, not the Kubernetes extensions: a rule that calls a
function it lacks (`isSorted`, `quantity`, `format`, `indexOf`, ...) is not checked, nor is a
transition rule (`oldSelf` compares with the object in the cluster, which a tree alone does
not have: `taugen diff` checks those against the old tree, transition.py). Both are listed as
not checked in the report, never passed silently.

Each rule is compiled once, on first use; only objects of a kind whose CRD has rules are read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from taugen.core.errors import Rule
from taugen.validate.celrules import RULES_KEY, RuleSource, Schema, child, defaulted, rule_sites
from taugen.validate.findings import Finding, finding
from taugen.validate.resources import Resource

RULE: Rule = "cel"
MACROS = frozenset({"has", "all", "exists", "exists_one", "map", "filter"})
SHOWN = 200  # characters of a rule's text in a hint or a note
_NO_SUCH_KEY = re.compile(r"no such member in mapping: '([^']*)'")
UNTYPED = "a value of a type the rule does not take here (the schema check says which)"
TRANSITION = "a transition rule (oldSelf): `taugen diff` checks it against the old tree"


@dataclass(frozen=True, order=True)
class Unchecked:
    """A rule that applied to objects of the tree but was not evaluated, and why."""

    api_version: str
    kind: str
    path: str  # where in the object: spec.tolerations
    message: str
    why: str
    rule: str
    objects: int = 0


@dataclass(frozen=True)
class Compiled:
    program: Any | None  # a celpy Runner, or None when the rule is not checked
    why_not: str | None


@cache
def _environment() -> Any:
    import celpy  # a second of imports and parser tables, paid only by a tree with CEL rules

    return celpy.Environment()


@cache
def _supported() -> frozenset[str]:
    from celpy.evaluation import base_functions

    return MACROS | frozenset(base_functions)


def compiled(text: str) -> Compiled:
    """The rule, compiled; a transition rule is not checked here (no old object)."""
    return compile_rule(text, transition=False)


@cache
def compile_rule(text: str, transition: bool) -> Compiled:
    """The rule, compiled; `transition`: oldSelf may be read (the caller binds it)."""
    from celpy.celparser import CELParseError
    from lark import Token

    environment = _environment()
    try:
        tree = environment.compile(text)
    except CELParseError:
        return Compiled(None, "cel-python cannot parse it (Kubernetes CEL syntax, such as optionals)")
    tokens = [t for t in tree.scan_values(lambda v: isinstance(v, Token))]
    if not transition and any(t.type == "IDENT" and t == "oldSelf" for t in tokens):
        return Compiled(None, TRANSITION)
    called = {str(sub.children[i]) for sub in tree.iter_subtrees() for i in _name_at(sub.data)}
    lacking = sorted(called - _supported())
    if lacking:
        return Compiled(None, f"it calls {', '.join(lacking)}: a Kubernetes CEL extension cel-python lacks")
    return Compiled(environment.program(tree), None)


def _name_at(data: str) -> tuple[int, ...]:
    """Where a call's function name sits: f(x) (ident_arg), x.f(y) (member_dot_arg)."""
    return {"ident_arg": (0,), "member_dot_arg": (1,)}.get(data, ())


class CelCheck:
    """The rules of every kind, read and compiled when an object of that kind is met."""

    def __init__(self, source: RuleSource) -> None:
        self.source = source
        self._sites: dict[tuple[str, str], tuple[Schema, Schema] | None] = {}
        self.unchecked: Counter[Unchecked] = Counter()

    def sites(self, api_version: str, kind: str) -> tuple[Schema, Schema] | None:
        key = (api_version, kind)
        if key not in self._sites:
            schema = self.source.schema(key)
            sites = rule_sites(schema) if schema else None
            self._sites[key] = (schema, sites) if schema and sites else None
        return self._sites[key]

    def findings(self, resource: Resource) -> Iterator[Finding]:
        obj = resource.obj
        if not isinstance(obj, dict) or not isinstance(obj.get("apiVersion"), str):
            return
        found = self.sites(obj["apiVersion"], str(obj.get("kind")))
        if found is None:
            return
        schema, sites = found
        over: list[str] = []
        value = defaulted(schema, {k: v for k, v in obj.items() if k != "status"}, over)
        if over:  # the schema refuses it already, and a rule over it could run without bound
            return
        label = (obj["apiVersion"], resource.kind)
        seen: set[Unchecked] = set()
        for rule, loc, here in _sited(sites, value, []):
            problem = self._evaluate(resource, rule, loc, here, label, seen)
            if problem is not None:
                yield problem
        self.unchecked.update(seen)

    def _evaluate(
        self,
        resource: Resource,
        rule: Any,
        loc: list[Any],
        here: Any,
        label: tuple[str, str],
        seen: set[Unchecked],
    ) -> Finding | None:
        text = str(rule.get("rule", ""))
        message = str(rule.get("message") or f"failed rule: {shown(text)}")
        program = compiled(text)
        if program.program is None:
            seen.add(Unchecked(*label, schema_path(loc), message, str(program.why_not), shown(text)))
            return None
        activation = cel_activation(self=here)
        if activation is None:
            seen.add(Unchecked(*label, schema_path(loc), message, BEYOND_INT64, shown(text)))
            return None
        outcome = run(program.program, activation)
        if outcome is True:
            return None
        if outcome is None or (isinstance(outcome, str) and outcome.startswith("undeclared reference")):
            why = (
                UNTYPED
                if outcome is None
                else f"cel-python cannot evaluate it: {str(outcome).split(' (')[0]}"
            )
            seen.add(Unchecked(*label, schema_path(loc), message, why, shown(text)))
            return None
        custom = rule_message(rule, activation) or message
        failing = "" if outcome is False else f" (the rule fails: {outcome})"
        at = [*loc, *_field_path(rule.get("fieldPath"))]
        hint = f"the API server refuses it by the CRD's rule `{shown(text)}`"
        return finding(resource, at, RULE, f"{_where(at)}: {custom}{failing}", hint)


def _sited(sites: Schema, value: Any, loc: list[Any]) -> Iterator[tuple[Any, list[Any], Any]]:
    """(rule, where, the value there) for every rule whose node the object has."""
    for rule in sites.get(RULES_KEY) or []:
        if isinstance(rule, dict):
            yield rule, loc, value
    steps = enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else ()
    for key, item in steps:
        sub = child(sites, key)
        if sub is not None:
            yield from _sited(sub, item, [*loc, key])


BEYOND_INT64 = "it holds an integer beyond CEL's 64 bits (the schema's types refuse it)"


def cel_activation(**values: Any) -> dict[str, Any] | None:
    """The CEL values a rule is evaluated on, or None when one holds an integer beyond CEL's 64
    bits (issue 32: cel-python's `overflow` ValueError was a traceback)."""
    from celpy.adapter import json_to_cel

    try:
        return {name: json_to_cel(value) for name, value in values.items()}
    except (ValueError, OverflowError):
        return None


def run(program: Any, activation: dict[str, Any]) -> bool | str | None:
    """True, False, the evaluation's error (in the API server's words), or None for a value of
    a type the rule does not take: the schema refuses it (the API server's rules are typed)."""
    from celpy.evaluation import CELEvalError

    try:
        result = program.evaluate(activation)
    except CELEvalError as err:
        result = err
    if isinstance(result, CELEvalError):
        cause = result.args[1] if len(result.args) > 1 else None
        return _error(result) if cause is KeyError else None
    return bool(result) if isinstance(result, bool | int) else None


def _error(err: Exception) -> str:
    text = str(err.args[0]) if err.args else str(err)
    return _NO_SUCH_KEY.sub(r"no such key: \1", text)


def rule_message(rule: dict[str, Any], activation: dict[str, Any]) -> str | None:
    """The rule's messageExpression evaluated, or None (then its message is shown)."""
    text = rule.get("messageExpression")
    if not isinstance(text, str):
        return None
    program = compiled(text).program
    if program is None:
        return None
    try:
        result = program.evaluate(activation)
    except Exception:  # the API server falls back to message too
        return None
    return str(result)[:SHOWN] if isinstance(result, str) and result.strip() else None


def _field_path(value: Any) -> list[str]:
    """A rule's fieldPath (`.spec.foo.bar`) as steps; brackets are not followed."""
    if not isinstance(value, str) or "[" in value:
        return []
    return [step for step in value.split(".") if step]


def _where(loc: list[Any]) -> str:
    return ".".join(str(step) for step in loc) or "object"


def schema_path(loc: list[Any]) -> str:
    return ".".join("[]" if isinstance(step, int) else str(step) for step in loc) or "object"


def shown(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SHOWN else f"{flat[: SHOWN - 1]}…"


def unchecked_list(counts: Counter[Unchecked]) -> list[Unchecked]:
    """One entry per rule not checked, with the number of objects it applied to."""
    return sorted(Unchecked(**{**u.__dict__, "objects": n}) for u, n in counts.items())

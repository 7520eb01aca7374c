"""Transition rules (CEL with `oldSelf`) of the CRDs, checked on an update: old object -> new.

`taugen validate` sees one tree and lists these rules as not checked (cel.py); `taugen diff`
has the old tree, and asks here whether the API server would refuse the update (issue 20).
A rule runs as the API server runs it: at its schema node, where the old and the new object
both have a value (a map's entries by key; a list's items only in a `listType: map` list, by
its keys: other list items do not correlate, and the API server skips the rule there), after
defaults, and only where the value changed (Kubernetes' validation ratcheting: an unchanged
value is never refused). A rule cel-python cannot evaluate is returned as such, never passed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from taugen.validate.cel import BEYOND_INT64, cel_activation, compile_rule, rule_message, run, shown
from taugen.validate.celrules import RULES_KEY, RuleSource, Schema, child, defaulted

Path = tuple[str | int, ...]


@dataclass(frozen=True, order=True)
class Refusal:
    """A transition rule the update breaks (`checked`), or could not be evaluated on it."""

    path: Path  # where in the object the rule sits: ("spec", "levels")
    message: str
    rule: str  # the rule's text, shortened
    checked: bool = True  # False: cel-python could not evaluate it; `message` says why


class TransitionCheck:
    """The transition rules of every kind, from the bundled CRDs (or `source`'s --crd files)."""

    def __init__(self, source: RuleSource | None = None) -> None:
        self.source = source or RuleSource()
        self._schemas: dict[tuple[str, str], Schema | None] = {}

    def schema(self, api_version: str, kind: str) -> Schema | None:
        key = (api_version, kind)
        if key not in self._schemas:
            schema = self.source.schema(key)
            self._schemas[key] = schema if schema and "oldSelf" in repr(schema) else None
        return self._schemas[key]

    def refusals(self, old: dict[str, Any], new: dict[str, Any]) -> list[Refusal]:
        """What the API server's transition rules refuse of updating `old` to `new`."""
        api_version, kind = new.get("apiVersion"), str(new.get("kind"))
        if (old.get("apiVersion"), old.get("kind")) != (api_version, kind) or not isinstance(
            api_version, str
        ):
            return []
        schema = self.schema(api_version, kind)
        if schema is None:
            return []
        over: list[str] = []
        sides = [defaulted(schema, {k: v for k, v in o.items() if k != "status"}, over) for o in (old, new)]
        if over:  # the schema refuses it already (validate says so)
            return []
        found = (
            _check(rule, path, was, now)
            for rule, path, was, now in _correlated(schema, sides[0], sides[1], ())
        )
        return sorted(r for r in found if r is not None)


def _correlated(
    schema: Schema, old: Any, new: Any, path: Path
) -> Iterator[tuple[dict[str, Any], Path, Any, Any]]:
    """(transition rule, where, old value, new value) for every changed value both sides have."""
    if old == new:
        return
    for rule in schema.get(RULES_KEY) or []:
        if isinstance(rule, dict) and "oldSelf" in str(rule.get("rule", "")):
            yield rule, path, old, new
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old.keys() & new.keys():
            sub = child(schema, key)
            if sub is not None:
                yield from _correlated(sub, old[key], new[key], (*path, key))
    elif isinstance(old, list) and isinstance(new, list) and schema.get("x-kubernetes-list-type") == "map":
        keys = schema.get("x-kubernetes-list-map-keys") or []
        items = child(schema, 0)
        was = {_key(item, keys): item for item in old}
        for index, item in enumerate(new):
            if items is not None and _key(item, keys) in was:
                yield from _correlated(items, was[_key(item, keys)], item, (*path, index))


def _key(item: Any, keys: list[str]) -> tuple[str, ...]:
    return tuple(repr(item.get(k)) for k in keys) if isinstance(item, dict) else (repr(item),)


def _check(rule: dict[str, Any], path: Path, old: Any, new: Any) -> Refusal | None:
    text = str(rule.get("rule", ""))
    message = str(rule.get("message") or f"failed rule: {shown(text)}")
    program = compile_rule(text, transition=True)
    if program.program is None:
        return Refusal(path, f"{message} — not checked: {program.why_not}", shown(text), checked=False)
    activation = cel_activation(self=new, oldSelf=old)
    if activation is None:
        return Refusal(path, f"{message} — not checked: {BEYOND_INT64}", shown(text), checked=False)
    outcome = run(program.program, activation)
    if outcome is True:
        return None
    if outcome is None or (isinstance(outcome, str) and outcome.startswith("undeclared reference")):
        why = "cel-python cannot evaluate it on these values"
        return Refusal(path, f"{message} — not checked: {why}", shown(text), checked=False)
    return Refusal(path, rule_message(rule, activation) or message, shown(text))

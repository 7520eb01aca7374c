"""Load extraNodeLabelRules files: the Helm-values shape or a bare list (SPEC §1.3)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taugen.core.errors import InputError, Rule
from taugen.load.document import Document, Position, load_one
from taugen.load.validate import validate
from taugen.models.rules import NodeLabelRule, RulesFile

RULE: Rule = "R1"
HELM_PATH = ("tau-core-controller", "tauCluster")


@dataclass(frozen=True)
class LoadedRule:
    rule: NodeLabelRule
    doc: Document | None  # None for built-in rules
    loc: tuple[str | int, ...]

    def label_at(self, key: str, *, of_key: bool = False) -> Position | None:
        """Where the rule gives `key` (the value, or with of_key the key itself)."""
        return self.doc.at([*self.loc, "labels", key], key=of_key) if self.doc else None


def load_rules(path: Path) -> list[LoadedRule]:
    doc = load_one(path)
    prefix, data = _envelope(doc)
    bare_list = isinstance(doc.data, list)

    def relocate(loc: list[str | int]) -> list[str | int]:
        return loc[1:] if bare_list else [*prefix, *loc]

    model = validate(RulesFile, doc, RULE, data=data, relocate=relocate)
    return [
        LoadedRule(rule, doc, tuple(relocate(["extraNodeLabelRules", i])))
        for i, rule in enumerate(model.extraNodeLabelRules)
    ]


def _envelope(doc: Document) -> tuple[tuple[str, ...], Any]:
    """Where the rules are: a bare list, {extraNodeLabelRules: …}, or the chart's values."""
    data = doc.data
    if isinstance(data, list):
        return (), {"extraNodeLabelRules": data}
    if isinstance(data, dict) and HELM_PATH[0] in data:
        node: Any = data
        for step in HELM_PATH:
            node = node.get(step) if isinstance(node, dict) else None
        if isinstance(node, dict) and "extraNodeLabelRules" in node:
            # Other chart values may sit beside the rules: only the rules are read.
            return HELM_PATH, {"extraNodeLabelRules": node["extraNodeLabelRules"]}
        raise InputError(
            [
                doc.at(list(HELM_PATH)).problem(
                    RULE,
                    "no tau-core-controller.tauCluster.extraNodeLabelRules in this values file",
                    "add the rules under tau-core-controller.tauCluster.extraNodeLabelRules",
                )
            ]
        )
    return (), data

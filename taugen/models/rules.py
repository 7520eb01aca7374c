"""Node label rules, `extraNodeLabelRules` (SPEC §1.3)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from taugen.models.base import StrictModel


class RuleMatch(StrictModel):
    vmSizes: list[Annotated[str, Field(min_length=1)]] = Field(
        min_length=1, description="vmSizes matched exactly, ignoring ASCII case (R1)"
    )


class NodeLabelRule(StrictModel):
    match: RuleMatch
    labels: dict[str, str] = Field(min_length=1)


class RulesFile(StrictModel):
    """The bare form; the Helm-values form nests this under tau-core-controller.tauCluster."""

    extraNodeLabelRules: list[NodeLabelRule]

"""Node label rules, `extraNodeLabelRules` (SPEC §1.3)."""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, Field

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


class TauClusterValues(StrictModel):
    model_config = ConfigDict(extra="allow", frozen=True)  # other chart values are ignored (§1.3)

    extraNodeLabelRules: list[NodeLabelRule]


class TauCoreControllerValues(StrictModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    tauCluster: TauClusterValues


class RulesValues(StrictModel):
    """The Helm-values form, for editors: the rules under tau-core-controller.tauCluster."""

    model_config = ConfigDict(extra="allow", frozen=True)

    tau_core_controller: TauCoreControllerValues = Field(alias="tau-core-controller")

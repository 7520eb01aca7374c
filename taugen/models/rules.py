"""Node label rules, `extraNodeLabelRules` (SPEC §1.3)."""

from __future__ import annotations

from typing import Annotated, Self

from pydantic import ConfigDict, Field, field_validator, model_validator

from taugen.models.base import StrictModel, invalid

NonEmpty = Annotated[str, Field(min_length=1)]


class RuleMatch(StrictModel):
    vmSizes: list[NonEmpty] = Field(
        default_factory=list,
        description="vmSizes matched exactly, ignoring ASCII case (R1)",
        json_schema_extra={"minItems": 1},  # when given; a rule may match labels alone (R36)
    )
    labels: dict[NonEmpty, Annotated[list[str], Field(min_length=1)]] = Field(
        default_factory=dict,
        description="R36: every key present on the node with one of its values (and vmSizes, when given)",
    )

    @property
    def sizes(self) -> list[str]:
        return self.vmSizes

    @field_validator("vmSizes")
    @classmethod
    def _given_non_empty(cls, sizes: list[str]) -> list[str]:
        if not sizes:
            raise invalid(
                "vmSizes is empty: the rule matches nothing", "list at least one vmSize, or remove it"
            )
        return sizes

    @model_validator(mode="after")
    def _some_matcher(self) -> Self:
        if not self.vmSizes and not self.labels:
            raise invalid(
                "a rule needs a matcher: vmSizes or labels",
                "add `vmSizes: [Standard_…]` or `labels: {nvidia.com/gpu.product: [NVIDIA-H100-80GB-HBM3]}`",
                rule="R1",
            )
        return self


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

"""node-feature-discovery's NodeFeatureRule (nfd.k8s-sigs.io/v1alpha1) as a strict model, and its
JSON Schema, committed in schemas/nfd.k8s-sigs.io/ so `taugen validate` knows the kind.

Written for taugen from NFD's API reference (the rule format of its customization guide), not
copied from its CRD: closed at every level, as the Kueue models are.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import StrictStr

from taugen.api.kueue.meta import ClusterObjectMeta, KueueModel, Timestamp
from taugen.api.schema import manifest_schema_files, schema_file

NFD_API = "nfd.k8s-sigs.io/v1alpha1"
KIND = "NodeFeatureRule"
SCHEMA_FILE = schema_file(NFD_API, KIND)

Op = Literal[
    "In",
    "NotIn",
    "InRegexp",
    "Exists",
    "DoesNotExist",
    "Gt",
    "Ge",
    "Lt",
    "Le",
    "GtLt",
    "GeLe",
    "IsTrue",
    "IsFalse",
]


class MatchExpression(KueueModel):
    """An operator and its arguments, tested against one feature element's value (or name)."""

    op: Op
    value: list[StrictStr] | None = None
    type: Literal["version"] | None = None


class FeatureMatcherTerm(KueueModel):
    """Requirements on one feature set, e.g. `system.name`; all of them must match."""

    feature: StrictStr
    match_expressions: dict[StrictStr, MatchExpression] | None = None
    match_name: MatchExpression | None = None


class MatchAnyElem(KueueModel):
    match_features: list[FeatureMatcherTerm]


class NfdTaint(KueueModel):
    key: StrictStr
    value: StrictStr | None = None
    effect: StrictStr  # the CRD takes any string; nfd-master checks it
    time_added: Timestamp | None = None


class Rule(KueueModel):
    """A named rule: when its matchers hold on a node, nfd-master sets its labels there."""

    name: StrictStr
    labels: dict[StrictStr, StrictStr] | None = None
    labels_template: StrictStr | None = None
    annotations: dict[StrictStr, StrictStr] | None = None
    vars: dict[StrictStr, StrictStr] | None = None
    vars_template: StrictStr | None = None
    extended_resources: dict[StrictStr, StrictStr] | None = None
    taints: list[NfdTaint] | None = None
    match_features: list[FeatureMatcherTerm] | None = None
    match_any: list[MatchAnyElem] | None = None


class NodeFeatureRuleSpec(KueueModel):
    rules: list[Rule]


class NodeFeatureRule(KueueModel):
    """Cluster-scoped node labelling rules, evaluated by nfd-master."""

    api_version: Literal["nfd.k8s-sigs.io/v1alpha1"]
    kind: Literal["NodeFeatureRule"]
    metadata: ClusterObjectMeta
    spec: NodeFeatureRuleSpec
    status: dict[str, Any] | None = None


def nfd_schema_files() -> dict[str, bytes]:
    """`nfd.k8s-sigs.io/nodefeaturerule_v1alpha1.json` (relative to schemas/) -> its JSON text."""
    return manifest_schema_files({(NFD_API, KIND): NodeFeatureRule})

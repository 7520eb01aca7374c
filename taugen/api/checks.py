"""(apiVersion, kind) -> the upstream CEL rules taugen checks itself (api/rules.py), read from
the models of the kinds taugen writes. NFD's NodeFeatureRule and Grove's
ClusterTopologyBinding are here too: their CRDs hold no CEL rule, so they have no check."""

from __future__ import annotations

from taugen.api.kai import KINDS as KAI_KINDS
from taugen.api.kueue import API_VERSION
from taugen.api.kueue import KINDS as KUEUE_KINDS
from taugen.api.kueue.meta import KueueModel
from taugen.api.nfd import KIND, NFD_API, NodeFeatureRule
from taugen.api.rules import ChangeCheck, ObjectCheck

Key = tuple[str, str]  # (apiVersion, kind)
MODELS: dict[Key, type[KueueModel]] = {
    **{(API_VERSION, kind): model for kind, model in KUEUE_KINDS.items()},
    **KAI_KINDS,
    (NFD_API, KIND): NodeFeatureRule,
}


def object_checks(key: Key) -> tuple[ObjectCheck, ...]:
    model = MODELS.get(key)
    return model.checks if model is not None else ()


def change_checks(key: Key) -> tuple[ChangeCheck, ...]:
    model = MODELS.get(key)
    return model.change_checks if model is not None else ()

"""Issue 34 (7): `diff` names GPU quota held above the inventory (R26's high-water mark) as a
risk with both numbers: the ClusterQueues of a cluster summed per class (a cohort's shared and
tenant queues together), on the class's shared queue."""

from __future__ import annotations

from typing import Any

from taugen.engines.changes.guarantees import held_quotas
from taugen.engines.changes.objects import Identity, PlacedObject
from taugen.engines.changes.risks import Risk

API = "kueue.x-k8s.io/v1beta2"


def queue(name: str, gpus: int, namespace: str | None = None) -> tuple[Identity, PlacedObject]:
    spec: dict[str, Any] = {
        "cohortName": "taugrid",
        "resourceGroups": [
            {
                "flavors": [
                    {
                        "name": "taugrid-h200-141gb",
                        "resources": [{"name": "nvidia.com/gpu", "nominalQuota": gpus}],
                    }
                ]
            }
        ],
    }
    if namespace is not None:
        selector = {
            "matchExpressions": [
                {"key": "kubernetes.io/metadata.name", "operator": "In", "values": [namespace]}
            ]
        }
        spec["namespaceSelector"] = selector
    return Identity("c1", "ClusterQueue", "", name, API), PlacedObject("clusterqueue.yaml", {"spec": spec})


HEAD = dict([queue("taugrid-team-a", 8, "team-a"), queue("taugrid", 8)])  # the class quota: 16


def test_the_cohorts_queues_together_above_the_inventory_are_one_risk_line() -> None:
    [(ident, headline, risks)] = held_quotas(HEAD, {"c1": {"h200-141gb": 8}}, {"c1"})
    assert (ident.name, headline) == (
        "taugrid",
        "quota held above inventory: h200-141gb quota 16 GPUs, the inventory has 8",
    )
    assert risks == (
        Risk(
            "held",
            "the ClusterQueues hold h200-141gb quota 16 (R26: its high-water mark); the inventory has 8",
        ),
    )


def test_quota_the_inventory_covers_or_an_unchanged_cluster_says_nothing() -> None:
    assert list(held_quotas(HEAD, {"c1": {"h200-141gb": 16}}, {"c1"})) == []
    assert list(held_quotas(HEAD, {"c1": {"h200-141gb": 8}}, {"c2"})) == []
    assert list(held_quotas(HEAD, {}, {"c1"})) == []  # no inventory known (a revision, a manager)


def test_a_class_gone_from_the_inventory_holds_all_of_its_quota() -> None:
    [(_, headline, _)] = held_quotas(HEAD, {"c1": {}}, {"c1"})
    assert headline == "quota held above inventory: h200-141gb quota 16 GPUs, the inventory has 0"

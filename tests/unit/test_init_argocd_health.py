"""The Argo CD health checks `taugen init` writes, run by a Lua interpreter (lupa) on sample
objects: ClusterQueue healthy when its Active condition is True (issue 8)."""

from __future__ import annotations

from typing import Any, cast

import pytest
import yaml
from lupa.lua51 import LuaRuntime, lua_type  # Argo CD runs health checks in gopher-lua, a Lua 5.1

from taugen.commands.init import init

KEY = "resource.customizations.health.kueue.x-k8s.io_"


@pytest.fixture(scope="module")
def checks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    target = tmp_path_factory.mktemp("argocd")
    init(target)
    cm = yaml.safe_load((target / "argocd" / "argocd-cm-health.yaml").read_text())
    return {key.removeprefix(KEY): script for key, script in cm["data"].items()}


def health(script: str, obj: dict[str, Any]) -> dict[str, str]:
    """As Argo CD runs a health.lua: the object in the global `obj`, the script returns hs."""
    lua = LuaRuntime(unpack_returned_tuples=False)
    assert lua.lua_version == (5, 1)
    lua.globals()["obj"] = lua.table_from(obj, recursive=True)
    result = lua.execute(script)
    assert lua_type(result) == "table", result
    return {str(k): str(v) for k, v in cast(Any, result).items()}


def queue(kind: str, *conditions: dict[str, Any], generation: int = 1) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": "kueue.x-k8s.io/v1beta2",
        "kind": kind,
        "metadata": {"name": "taugrid", "generation": generation},
        "spec": {},
    }
    if conditions:
        obj["status"] = {"conditions": list(conditions)}
    return obj


def active(status: str, reason: str, message: str, observed: int = 1) -> dict[str, Any]:
    return {
        "type": "Active",
        "status": status,
        "reason": reason,
        "message": message,
        "observedGeneration": observed,
    }


WAITING = "waiting for Kueue to report the Active condition"
CASES = {
    "healthy": (
        [active("True", "Ready", "Can admit new workloads")],
        {"status": "Healthy", "message": "Can admit new workloads"},
    ),
    "progressing-no-status": ([], {"status": "Progressing", "message": WAITING}),
    "progressing-other-conditions": (
        [{"type": "Other", "status": "True"}],
        {"status": "Progressing", "message": WAITING},
    ),
    "progressing-stale-generation": (
        [active("True", "Ready", "Can admit new workloads", observed=1)],
        {"status": "Progressing", "message": "Kueue has not yet seen generation 2"},
    ),
    "degraded": (
        [
            active(
                "False", "FlavorNotFound", "Can't admit new workloads: references missing ResourceFlavor(s)"
            )
        ],
        {
            "status": "Degraded",
            "message": "FlavorNotFound: Can't admit new workloads: references missing ResourceFlavor(s)",
        },
    ),
}


@pytest.mark.parametrize("kind", ["ClusterQueue", "LocalQueue"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_queue_health(checks: dict[str, str], kind: str, case: str) -> None:
    conditions, expected = CASES[case]
    generation = 2 if case == "progressing-stale-generation" else 1
    assert health(checks[kind], queue(kind, *conditions, generation=generation)) == expected


def test_local_queue_degraded_when_its_cluster_queue_is_inactive(checks: dict[str, str]) -> None:
    status = active("False", "ClusterQueueIsInactive", "Can't submit new workloads to clusterQueue")
    assert health(checks["LocalQueue"], queue("LocalQueue", status)) == {
        "status": "Degraded",
        "message": "ClusterQueueIsInactive: Can't submit new workloads to clusterQueue",
    }


@pytest.mark.parametrize("kind", ["ResourceFlavor", "Topology"])
def test_statusless_kinds_are_healthy_once_they_exist(checks: dict[str, str], kind: str) -> None:
    result = health(
        checks[kind], {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": kind, "metadata": {"name": "x"}}
    )
    assert result["status"] == "Healthy"


def test_health_checks_cover_the_four_kinds(checks: dict[str, str]) -> None:
    assert sorted(checks) == ["ClusterQueue", "LocalQueue", "ResourceFlavor", "Topology"]


@pytest.mark.parametrize("kind", ["ClusterQueue", "LocalQueue"])
@pytest.mark.parametrize("status", [{}, {"conditions": []}], ids=["no-conditions", "empty-conditions"])
def test_a_status_without_an_active_condition_is_progressing(
    checks: dict[str, str], kind: str, status: dict[str, Any]
) -> None:
    obj = queue(kind) | {"status": status}
    assert health(checks[kind], obj) == {"status": "Progressing", "message": WAITING}


@pytest.mark.parametrize("kind", ["ClusterQueue", "LocalQueue"])
def test_only_a_true_active_condition_is_healthy(checks: dict[str, str], kind: str) -> None:
    """Not Healthy without a True Active condition for the current generation (G6)."""
    for status in ("False", "Unknown"):
        assert health(checks[kind], queue(kind, active(status, "R", "m")))["status"] != "Healthy"
    assert health(checks[kind], queue(kind, active("True", "R", "m"), generation=1))["status"] == "Healthy"

"""The fixture's control plane is what issue 31 says: the real kube-apiserver v1.34.2 on
loopback with RBAC and the default admission plugins but ServiceAccount, Kueue's CRDs
Established, and minimalkueue acting on ClusterQueues."""

from __future__ import annotations

import ssl
from typing import Any

import httpx
import pytest
import yaml

from tests.realcluster.binaries import Binaries
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.crds import load_crds
from tests.realcluster.kube import Kube, condition, deleted, wait_for
from tests.realcluster.kueue import KUEUE

pytestmark = pytest.mark.realcluster


def test_the_server_reports_the_stamped_version(control_plane: ControlPlane) -> None:
    version = Kube.expect(control_plane.kube.http.get("/version"))
    assert (version["gitVersion"], version["major"], version["minor"]) == ("v1.34.2", "1", "34")
    assert version["gitTreeState"] == "clean" and version["buildDate"] != "1970-01-01T00:00:00Z"


def test_only_loopback_and_only_with_a_certificate(control_plane: ControlPlane) -> None:
    assert control_plane.server.startswith("https://127.0.0.1:")
    ca = ssl.create_default_context(cafile=str(control_plane.folder / "pki" / "ca.crt"))
    anonymous = httpx.get(f"{control_plane.server}/api/v1/nodes", verify=ca, timeout=10)
    assert anonymous.status_code == 403  # RBAC: system:anonymous may not list nodes


def test_admission_without_serviceaccount_but_with_taint_nodes(control_plane: ControlPlane) -> None:
    kube = control_plane.kube
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "probe", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "registry.invalid/probe"}]},
    }
    created = Kube.expect(kube.create(pod, dry_run=True))  # no `default` ServiceAccount exists
    assert "serviceAccountName" not in created["spec"] and created["spec"]["priority"] == 0  # Priority
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "realcluster-probe-node"}}
    taints = Kube.expect(kube.create(node, dry_run=True))["spec"]["taints"]
    assert taints == [{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"}]


def test_every_kueue_crd_is_served(control_plane: ControlPlane, binaries: Binaries) -> None:
    crds = load_crds(sorted(binaries.kueue_crds.glob("*.yaml")))
    kinds = {c["spec"]["names"]["kind"] for c in crds}
    assert len(crds) == 11 and "Workload" in kinds
    served = Kube.expect(control_plane.kube.http.get(f"/apis/{KUEUE}"))["resources"]
    assert {r["kind"] for r in served if "/" not in r["name"]} == kinds


def test_kueue_activates_a_queue_once_its_flavor_exists(control_plane: ControlPlane) -> None:
    kube = control_plane.kube
    flavor = {"apiVersion": KUEUE, "kind": "ResourceFlavor", "metadata": {"name": "realcluster-late"}}
    queue: dict[str, Any] = yaml.safe_load(QUEUE)
    Kube.expect(kube.apply(queue))
    wait_for(
        "Kueue: FlavorNotFound", lambda: _reason(kube.get(queue)) == "FlavorNotFound", 60, control_plane.alive
    )
    assert not condition(kube.get(queue), "Active")
    Kube.expect(kube.apply(flavor))
    wait_for("Kueue: Active", lambda: condition(kube.get(queue), "Active"), 60, control_plane.alive)
    for obj in (queue, flavor):
        Kube.expect(kube.delete(obj))
        wait_for("deleted", deleted(kube, obj), 60, control_plane.alive)


QUEUE = f"""
apiVersion: {KUEUE}
kind: ClusterQueue
metadata: {{name: realcluster-late}}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: realcluster-late
      resources: [{{name: cpu, nominalQuota: "1"}}]
"""


def _reason(obj: dict[str, Any] | None) -> str | None:
    conditions = ((obj or {}).get("status") or {}).get("conditions") or []
    return next((c.get("reason") for c in conditions if c.get("type") == "Active"), None)

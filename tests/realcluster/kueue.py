"""Kueue's minimalkueue against the control plane (issue 31): core controllers, TAS and the
scheduler, no webhooks. It has no readiness probe, so a probe ResourceFlavor and ClusterQueue
are created, the queue awaited Active (Kueue's controllers read and wrote it), then removed
(Kueue drops their finalizers: it is running)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.realcluster.kube import Kube, Object, condition, deleted, wait_for
from tests.realcluster.processes import start

if TYPE_CHECKING:
    from tests.realcluster.binaries import Binaries
    from tests.realcluster.controlplane import ControlPlane

KUEUE = "kueue.x-k8s.io/v1beta2"
ACTIVE_SECONDS = 120.0
PROBE = "taugen-probe"
PROBE_FLAVOR: Object = {"apiVersion": KUEUE, "kind": "ResourceFlavor", "metadata": {"name": PROBE}}
PROBE_QUEUE: Object = {
    "apiVersion": KUEUE,
    "kind": "ClusterQueue",
    "metadata": {"name": PROBE},
    "spec": {
        "resourceGroups": [
            {
                "coveredResources": ["cpu"],
                "flavors": [{"name": PROBE, "resources": [{"name": "cpu", "nominalQuota": "1"}]}],
            }
        ]
    },
}


def start_kueue(plane: ControlPlane, binaries: Binaries) -> None:
    """minimalkueue started (one of the plane's processes) and answering."""
    command = [binaries["minimalkueue"], f"--kubeconfig={plane.kubeconfig}", "--enableTAS"]
    command += ["--zap-log-level=info"]
    process = start("minimalkueue", command, plane.folder / "logs" / "minimalkueue.log")
    plane.processes.append(process)
    kube = plane.kube
    for probe in (PROBE_FLAVOR, PROBE_QUEUE):
        Kube.expect(kube.apply(probe))
    wait_for(
        "Kueue: the probe ClusterQueue Active",
        lambda: condition(kube.get(PROBE_QUEUE), "Active"),
        ACTIVE_SECONDS,
        plane.alive,
    )
    for probe in (PROBE_QUEUE, PROBE_FLAVOR):
        Kube.expect(kube.delete(probe))
        wait_for(
            f"{probe['kind']} {PROBE} deleted",
            deleted(kube, probe),
            ACTIVE_SECONDS,
            plane.alive,
        )

"""Kueue's full manager (cmd/kueue v0.19.2) outside a cluster, with a Configuration of our own
(issue 35, R49): fair sharing on with a given preemptionStrategies list, which minimalkueue
cannot do (it reads no configuration).

The Configuration (config.kueue.x-k8s.io/v1beta1, the form taugen.yaml's `kueue.fairSharing`
records: `enable` and `preemptionStrategies`; v0.19.2 converts it to v1beta2, where a present
`fairSharing` is what enables it, apis/config/v1beta1/configuration_conversion.go):
internalCertManagement off (it would write Secrets and inject CA bundles into the CRDs'
conversion webhooks), leader election off, every listener on a free loopback port (webhook,
metrics, health), VisibilityOnDemand off (its API server would want the aggregation layer).
The webhook server serves a certificate of our own (pki.py); no webhook configuration points
at it, so the API server calls none, as with minimalkueue. With internalCertManagement off,
v0.19.2 reads the metrics certificate from the fixed folder METRICS_CERTS (cmd/kueue/main.go:
no flag or field moves it): the fixture writes its own pair there when none is there, and
removes what it wrote when the manager stops.

Ready when its /readyz answers 200 (the webhook server listens) and a probe ClusterQueue is
Active with a `status.fairSharing` (written only when fair sharing is on:
pkg/controller/core/clusterqueue_controller.go)."""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import yaml

from tests.realcluster.binaries import MANAGER
from tests.realcluster.controlplane import ControlPlane, free_ports
from tests.realcluster.kube import Kube, condition, deleted, wait_for
from tests.realcluster.kueue import ACTIVE_SECONDS, PROBE, PROBE_FLAVOR, PROBE_QUEUE
from tests.realcluster.pki import make_pki
from tests.realcluster.processes import Process, start
from tests.realcluster.simkueue_cluster import ensure_namespace

if TYPE_CHECKING:
    from tests.realcluster.binaries import Binaries

CONFIG_API = "config.kueue.x-k8s.io/v1beta1"
NAMESPACE = "kueue-system"  # the Configuration's default namespace (its Secrets' cache)
METRICS_CERTS = Path("/etc/kueue/metrics/certs")
READY_SECONDS = 120.0


@dataclass
class Manager:
    process: Process
    config: dict[str, Any]
    seconds: float  # from the start to ready


def configuration(folder: Path, ports: Sequence[int], fair_sharing: dict[str, Any]) -> dict[str, Any]:
    """Kueue's Configuration; `fair_sharing` is a cluster's `kueue.fairSharing` as taugen.yaml
    records it (R49), put in as it is."""
    webhook, metrics, health = ports
    return {
        "apiVersion": CONFIG_API,
        "kind": "Configuration",
        "namespace": NAMESPACE,
        "health": {"healthProbeBindAddress": f"127.0.0.1:{health}"},
        "metrics": {"bindAddress": f"127.0.0.1:{metrics}"},
        "webhook": {"host": "127.0.0.1", "port": webhook, "certDir": str(folder / "webhook")},
        "leaderElection": {"leaderElect": False},
        "internalCertManagement": {"enable": False},
        "featureGates": {"VisibilityOnDemand": False},
        "fairSharing": fair_sharing,
    }


@contextlib.contextmanager
def manager(
    plane: ControlPlane, binaries: Binaries, fair_sharing: dict[str, Any], name: str
) -> Iterator[Manager]:
    """The manager with fair sharing as `fair_sharing` says, running and ready on `plane`, for
    the block; stopped after (its log stays in the plane's logs folder, as `name`)."""
    folder = plane.folder / "manager" / name
    pki = make_pki(folder / "pki")
    (folder / "webhook").mkdir(parents=True)
    shutil.copy(pki.serving_cert, folder / "webhook" / "tls.crt")
    shutil.copy(pki.serving_key, folder / "webhook" / "tls.key")
    ports = free_ports(3)
    config = configuration(folder, ports, fair_sharing)
    path = folder / "config.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    ensure_namespace(plane.kube, NAMESPACE)
    with _metrics_certs(pki.serving_cert, pki.serving_key):
        began = time.monotonic()
        command = [binaries[MANAGER], f"--config={path}", f"--kubeconfig={plane.kubeconfig}"]
        command += ["--zap-log-level=info"]
        process = start(f"kueue manager ({name})", command, plane.folder / "logs" / f"kueue-{name}.log")
        plane.processes.append(process)
        try:
            _await_ready(plane, ports[2])
            yield Manager(process, config, time.monotonic() - began)
        finally:
            process.stop()
            plane.processes.remove(process)


@contextlib.contextmanager
def _metrics_certs(cert: Path, key: Path) -> Iterator[None]:
    """v0.19.2's fixed metrics-certificate folder holds a pair while the block runs; what this
    wrote (the files, and the folders it made) is removed after; a pair already there is kept."""
    made = [p for p in (METRICS_CERTS, *METRICS_CERTS.parents) if not p.exists()]
    wrote = []
    METRICS_CERTS.mkdir(parents=True, exist_ok=True)
    for source, target in ((cert, METRICS_CERTS / "tls.crt"), (key, METRICS_CERTS / "tls.key")):
        if not target.exists():
            shutil.copy(source, target)
            wrote.append(target)
    try:
        yield
    finally:
        for target in wrote:
            target.unlink(missing_ok=True)
        for folder in made:  # the deepest first
            with contextlib.suppress(OSError):
                folder.rmdir()


def _await_ready(plane: ControlPlane, health: int) -> None:
    kube = plane.kube
    wait_for("the Kueue manager's /readyz", lambda: _ready(health), READY_SECONDS, plane.alive)
    for probe in (PROBE_FLAVOR, PROBE_QUEUE):
        Kube.expect(kube.apply(probe))
    wait_for(
        "the Kueue manager: the probe ClusterQueue Active, with a fair-sharing status",
        lambda: condition(kube.get(PROBE_QUEUE), "Active") and _fair_status(kube) is not None,
        ACTIVE_SECONDS,
        plane.alive,
    )
    for probe in (PROBE_QUEUE, PROBE_FLAVOR):
        Kube.expect(kube.delete(probe))
        wait_for(f"{probe['kind']} {PROBE} deleted", deleted(kube, probe), ACTIVE_SECONDS, plane.alive)


def _fair_status(kube: Kube) -> object:
    found = kube.get(PROBE_QUEUE) or {}
    return (found.get("status") or {}).get("fairSharing")


def _ready(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False

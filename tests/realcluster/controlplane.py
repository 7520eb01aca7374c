"""A real control plane on loopback for the `realcluster` tests (issue 31): etcd, kube-apiserver
(RBAC, the default admission plugins but ServiceAccount), an admin client-certificate
kubeconfig, the CRDs taugen's trees use, and Kueue's minimalkueue. Only 127.0.0.1 is bound."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.realcluster.binaries import Binaries
from tests.realcluster.crds import install_crds
from tests.realcluster.kube import Kube, wait_for
from tests.realcluster.kueue import start_kueue
from tests.realcluster.pki import Pki, make_pki
from tests.realcluster.processes import Process, start

LOOPBACK = "127.0.0.1"
START_SECONDS = 180.0  # a cold start on two busy cores


@dataclass
class ControlPlane:
    folder: Path
    server: str
    kubeconfig: Path
    kube: Kube
    processes: list[Process] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)  # per start phase

    def alive(self) -> bool:
        return all(p.alive() for p in self.processes)

    def tails(self) -> str:
        return "\n\n".join(p.tail() for p in self.processes)

    def stop(self) -> None:
        self.kube.close()
        for process in reversed(self.processes):
            process.stop()


def start_control_plane(
    binaries: Binaries,
    folder: Path,
    crd_files: list[Path],
    kueue: Callable[[ControlPlane, Binaries], None] | None = start_kueue,
) -> ControlPlane:
    """Everything up and ready; on a failure, what was started is stopped and the error says
    why, with the logs' last lines. `kueue`: what starts Kueue (minimalkueue by default); None:
    no Kueue (its caller starts one, as the fair-sharing manager's fixture does)."""
    etcd_port, peer_port, api_port = free_ports(3)
    pki = make_pki(folder / "pki")
    server = f"https://{LOOPBACK}:{api_port}"
    plane = ControlPlane(
        folder, server, write_kubeconfig(folder / "kubeconfig", server, pki), Kube(server, pki)
    )
    try:
        _phase(plane, "etcd", lambda: _etcd(plane, binaries, etcd_port, peer_port))
        _phase(plane, "kube-apiserver", lambda: _apiserver(plane, binaries, pki, etcd_port))
        _phase(plane, "CRDs", lambda: install_crds(plane.kube, crd_files, plane.alive))
        if kueue is not None:
            _phase(plane, "minimalkueue", lambda: kueue(plane, binaries))
    except BaseException as error:
        tails = plane.tails()
        plane.stop()
        raise AssertionError(f"the control plane did not start: {error}\n\n{tails}") from error
    return plane


def _phase(plane: ControlPlane, name: str, step: Callable[[], object]) -> None:
    began = time.monotonic()
    step()
    plane.seconds[name] = time.monotonic() - began


def free_ports(count: int) -> list[int]:
    """Ports the kernel hands out for 127.0.0.1:0, all held until every one is picked."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(count)]
        for s in sockets:
            s.bind((LOOPBACK, 0))
        return [s.getsockname()[1] for s in sockets]


def _etcd(plane: ControlPlane, binaries: Binaries, port: int, peer: int) -> None:
    client, peers = f"http://{LOOPBACK}:{port}", f"http://{LOOPBACK}:{peer}"
    command = [binaries["etcd"], "--name=taugen", f"--data-dir={plane.folder / 'etcd'}"]
    command += [f"--listen-client-urls={client}", f"--advertise-client-urls={client}"]
    command += [f"--listen-peer-urls={peers}", f"--initial-advertise-peer-urls={peers}"]
    command += [f"--initial-cluster=taugen={peers}", "--unsafe-no-fsync", "--log-level=warn"]
    plane.processes.append(start("etcd", command, plane.folder / "logs" / "etcd.log"))
    wait_for("etcd /health", lambda: _etcd_healthy(client), START_SECONDS, plane.alive)


def _etcd_healthy(client: str) -> bool:
    try:
        return bool(httpx.get(f"{client}/health", timeout=2).json().get("health") == "true")
    except (httpx.HTTPError, ValueError):
        return False


def _apiserver(plane: ControlPlane, binaries: Binaries, pki: Pki, etcd_port: int) -> None:
    port = plane.server.rsplit(":", 1)[1]
    command = [binaries["kube-apiserver"], f"--etcd-servers=http://{LOOPBACK}:{etcd_port}"]
    command += [f"--bind-address={LOOPBACK}", f"--advertise-address={LOOPBACK}", f"--secure-port={port}"]
    command += [f"--tls-cert-file={pki.serving_cert}", f"--tls-private-key-file={pki.serving_key}"]
    command += [f"--client-ca-file={pki.ca}", "--authorization-mode=RBAC"]
    command += ["--service-account-issuer=https://kubernetes.default.svc"]
    command += [f"--service-account-key-file={pki.service_account_pub}"]
    command += [f"--service-account-signing-key-file={pki.service_account_key}"]
    command += ["--service-cluster-ip-range=10.0.0.0/24", "--endpoint-reconciler-type=none"]
    command += ["--disable-admission-plugins=ServiceAccount", f"--cert-dir={plane.folder / 'certs'}"]
    log = plane.folder / "logs" / "kube-apiserver.log"
    plane.processes.append(start("kube-apiserver", command, log))
    wait_for("kube-apiserver /readyz", lambda: _ready(plane.kube), START_SECONDS, plane.alive)


def _ready(kube: Kube) -> bool:
    try:
        return kube.http.get("/readyz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def write_kubeconfig(path: Path, server: str, pki: Pki) -> Path:
    """The admin's kubeconfig (client certificate, O=system:masters), files by path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "apiVersion: v1\nkind: Config\n"
        f"clusters:\n- name: realcluster\n  cluster:\n    server: {server}\n"
        f"    certificate-authority: {pki.ca}\n"
        f"users:\n- name: admin\n  user:\n    client-certificate: {pki.client_cert}\n"
        f"    client-key: {pki.client_key}\n"
        "contexts:\n- name: realcluster\n  context: {cluster: realcluster, user: admin}\n"
        "current-context: realcluster\n"
    )
    return path

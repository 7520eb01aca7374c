"""Rules are untrusted (issue 17 items 8, 9): reserved label namespaces and gpu-classes."""

from __future__ import annotations

import pytest

from taugen.resolve.labels import reserved_prefix
from taugen.resolve.rules import gpu_class_error


@pytest.mark.parametrize(
    ("key", "reserved"),
    [
        ("node-role.kubernetes.io/control-plane", "kubernetes.io"),
        ("kubernetes.io/arch", "kubernetes.io"),
        ("node-restriction.kubernetes.io/tenant", "kubernetes.io"),
        ("topology.kubernetes.io/zone", "kubernetes.io"),
        ("k8s.io/x", "k8s.io"),
        ("kueue.x-k8s.io/queue-name", "x-k8s.io"),
        ("net.unbounded-cloud.io/network-domain", "net.unbounded-cloud.io"),
        ("tau.azure.com/quota", "tau.azure.com"),
        ("kueue.azure.com/other", "kueue.azure.com"),
        ("tau.azure.com/gpu-class", None),
        ("kueue.azure.com/gpu-series", None),
        ("notkubernetes.io/x", None),
        ("node-pool.example.com/role", None),
        ("role", None),
    ],
)
def test_reserved_prefixes(key: str, reserved: str | None) -> None:
    assert reserved_prefix(key) == reserved


def test_gpu_class_default_cpu_is_reserved() -> None:
    assert gpu_class_error("default-cpu", {}) == (
        "gpu-class 'default-cpu' is reserved: its flavor taugrid-default-cpu is the CPU-only flavor",
        "name the hardware, e.g. h200-141gb",
    )
    assert gpu_class_error("h200-141gb", {}) is None

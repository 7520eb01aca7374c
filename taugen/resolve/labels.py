"""Label keys taugen reads and writes (R10, R12, R13, R17)."""

from __future__ import annotations

from taugen.models.platform import PRESETS, TopologyLabels

GPU_CLASS = "tau.azure.com/gpu-class"
GPU_SERIES = "kueue.azure.com/gpu-series"
SITE = "tau.azure.com/site"
NETWORK_DOMAIN = "tau.azure.com/network-domain"
ACCELERATOR_DOMAIN = "tau.azure.com/accelerator-domain"
INFINIBAND = "tau.azure.com/infiniband"
HOSTNAME = "kubernetes.io/hostname"

# R10: topology levels, broad to narrow.
LEVELS = (SITE, NETWORK_DOMAIN, ACCELERATOR_DOMAIN, HOSTNAME)

PROVIDER_NETWORK_DOMAIN = "net.unbounded-cloud.io/network-domain"
PROVIDER_ACCELERATOR_DOMAIN = "net.unbounded-cloud.io/accelerator-domain"

# §1.2: labels under these prefixes are taugen's outputs, never inputs.
OWN_PREFIXES = ("tau.azure.com/", "kueue.azure.com/")

# Labels taugen computes itself: a rule may not set them (R17 gives them only to GPU nodes).
COMPUTED = frozenset({SITE, NETWORK_DOMAIN, ACCELERATOR_DOMAIN, INFINIBAND, HOSTNAME})

# Issue 17 item 8: rules are untrusted. No rule writes a label under these DNS prefixes (or
# their subdomains): Kubernetes' reserved ones (node-role, kubernetes.io/arch,
# node-restriction, topology), SIG APIs such as kueue.x-k8s.io, the provider's fabric labels
# (taugen's inputs) and taugen's own, except the two keys that rules exist to set; and (issue
# 32) NVIDIA's, which the GPU operator reads as commands.
RESERVED_PREFIXES = (
    "kubernetes.io",
    "k8s.io",
    "x-k8s.io",
    "net.unbounded-cloud.io",
    "tau.azure.com",
    "kueue.azure.com",
    "nvidia.com",
)
RULE_LABELS = frozenset({GPU_CLASS, GPU_SERIES})
# What a reserved namespace's owner does with a label, where "reserved" alone says too little
RESERVED_WHY = {
    "nvidia.com": "NVIDIA's GPU operator and GPU feature discovery own it, and the operator acts on "
    "its control labels (nvidia.com/gpu.deploy.driver=false removes the driver, nvidia.com/mig.config "
    "repartitions the GPUs)",
}


def domain_keys(sources: TopologyLabels) -> frozenset[str]:
    """R37 (issue 32): the keys every preset, and this cluster, read topology domains from: a rule
    that wrote one would move nodes between domains (and Kueue's TAS with them)."""
    presets = [*PRESETS.values(), sources]
    return frozenset(k for p in presets for k in (*p.networkDomain, *p.acceleratorDomain))


def reserved_prefix(key: str) -> str | None:
    """The reserved prefix a label key lies under, or None (`key` is a valid label key)."""
    prefix = key.rpartition("/")[0]
    if not prefix or key in RULE_LABELS:
        return None
    return next((r for r in RESERVED_PREFIXES if prefix == r or prefix.endswith("." + r)), None)


from taugen.core.names import CPU_CLASS, PLATFORM_PREFIX, RESERVED_GPU_CLASSES  # noqa: E402  (their home)

__all__ = ["CPU_CLASS", "PLATFORM_PREFIX", "RESERVED_GPU_CLASSES"]

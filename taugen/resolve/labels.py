"""Label keys taugen reads and writes (R10, R12, R13, R17)."""

from __future__ import annotations

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

PLATFORM_PREFIX = "taugrid-"

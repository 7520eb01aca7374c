"""What compile asks of a cluster's scheduler: its queue objects, their waves, its CRD groups.

The compile stage's part of the scheduler Protocol (taugen/schedulers/protocol.py `Backend`
extends it); compile takes it as an argument and never looks a scheduler up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from taugen.compile.guarantee import Guarantees
from taugen.compile.manifest import Manifest
from taugen.compile.quota import ClassQuota
from taugen.models.tiers import Tiers
from taugen.resolve.cluster import ResolvedCluster


class CompileBackend(Protocol):
    # API groups of the backend's CRDs: their objects skip the dry run until the CRD exists.
    crd_groups: tuple[str, ...]
    # Where the profile catalog ConfigMap (R30) lives: the scheduler's own namespace.
    catalog_namespace: str

    def compile(
        self,
        cluster: ResolvedCluster,
        quotas: Sequence[ClassQuota],
        guarantees: Guarantees = ...,
        tiers: Tiers = ...,
    ) -> list[Manifest]:
        """The scheduler's queue, quota and topology objects (with the tenants' guarantees, §10;
        its own objects of the project's priority tiers, R50); InputError past a limit."""
        ...

    def wave(self, manifest: Manifest) -> str:
        """The Argo CD sync wave of one of the backend's own objects (§4, K3)."""
        ...

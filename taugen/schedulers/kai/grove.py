"""Grove's ClusterTopologyBinding for taugen's KAI Topology (SPEC §8, `grove: true`).

Without `schedulerTopologyBindings`, Grove creates and reconciles a KAI Topology of its own
from `spec.levels`; with one pointing at taugen's Topology, Grove treats that Topology as
externally managed: it only checks it for drift. So Argo CD (syncing taugen's tree) and Grove
never write the same object.
"""

from __future__ import annotations

from collections.abc import Mapping

from taugen.api.kai import GROVE_API
from taugen.compile.manifest import Manifest, object_
from taugen.resolve.labels import ACCELERATOR_DOMAIN, HOSTNAME, NETWORK_DOMAIN, SITE
from taugen.resolve.levels import Levels

KAI_SCHEDULER = "kai-scheduler"  # Grove's name of the KAI backend (and KAI's schedulerName)
GROVE_FILE = "grove-topology.yaml"
# Grove's own vocabulary (earlier releases accept only region, zone, datacenter, block, rack,
# host, numa): a site is a region, a fabric a block of racks, an NVLink island a rack.
DOMAINS: Mapping[str, str] = {
    SITE: "region",
    NETWORK_DOMAIN: "block",
    ACCELERATOR_DOMAIN: "rack",
    HOSTNAME: "host",
}


def cluster_topology_binding(topology: str, levels: Levels) -> Manifest:
    """The Topology's levels, in its order, as Grove's domains on the same node labels. With
    declared levels (R42) Grove's older vocabulary cannot hold them: every level's domain is then
    its name (§2's by KAI's aliases, the host `host`), which the current CRD takes."""
    own = bool(levels.declared)
    spec = {
        "levels": [
            {"domain": ("host" if label == HOSTNAME else name) if own else DOMAINS[label], "key": label}
            for name, label in levels.levels
        ],
        "schedulerTopologyBindings": [{"schedulerName": KAI_SCHEDULER, "topologyReference": topology}],
    }
    return Manifest(GROVE_FILE, object_(GROVE_API, "ClusterTopologyBinding", topology, spec=spec))

"""R46 (issue 34): a topologyLabels preset or key, or a declared level's label (R42), that no
GPU node of a class carries.

Each such node then becomes its own domain (R14), or, at a declared level, Kueue leaves it out
of topology-aware scheduling (a node must carry every level's label, and so must each node
that alone lacks it); the build would say nothing. The warning names the class, the labels
looked for, the labels those nodes do carry, and what to write. Only a cluster that sets
`topologyLabels` is checked for those (the default is what taugen reads when nothing is said);
a declared level whose every node of a class is its own domain is said too: a run requiring it
fits on one node."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from taugen.core.errors import Problem
from taugen.load.inventory import NodeFacts
from taugen.models.platform import TopologyLabels
from taugen.models.project import Cluster
from taugen.resolve.domains import sources_of
from taugen.resolve.labels import GPU_CLASS

# Labels that say what a node is, not where it sits: never offered as a domain label.
_NOT_TOPOLOGY = (
    "kubernetes.io/",
    "beta.kubernetes.io/",
    "node.kubernetes.io/",
    "node-role.kubernetes.io/",
    "failure-domain.beta.kubernetes.io/",
    "k8s.io/",
    "feature.node.kubernetes.io/",
    "nvidia.com/gpu.",
    "nvidia.com/cuda.",
    "nvidia.com/mig.",
    "nvidia.com/gfd.",
    "karpenter.sh/",
    "karpenter.k8s.aws/",
    "eks.amazonaws.com/",
    "kubernetes.azure.com/",
    "tau.azure.com/",
    "kueue.azure.com/",
)
_SHOWN = 10  # labels named in one warning


def _level_names(sources: TopologyLabels) -> list[tuple[str, list[str]]]:
    return [("networkDomain", sources.networkDomain), ("acceleratorDomain", sources.acceleratorDomain)]


def source_warnings(cluster: Cluster, placed: Sequence[tuple[NodeFacts, dict[str, str]]]) -> list[Problem]:
    """Per GPU class: a preset none of whose labels its nodes carry, or a level of the explicit
    form none of whose keys they carry; then the declared levels' (R42)."""
    by_class: dict[str, list[NodeFacts]] = defaultdict(list)
    for node, labels in placed:
        by_class[labels[GPU_CLASS]].append(node)
    return [*_preset_warnings(cluster, by_class), *_level_warnings(cluster, by_class)]


def _level_warnings(cluster: Cluster, by_class: dict[str, list[NodeFacts]]) -> list[Problem]:
    if cluster.topology is None:
        return []
    found: list[Problem] = []
    for gpu_class, nodes in sorted(by_class.items()):
        first = min(nodes, key=lambda n: n.name)
        for level in cluster.topology.declared.levels:
            values = [node.labels.get(level.label) for node in nodes]
            if all(v is None for v in values):
                found.append(_missing_level(cluster, gpu_class, nodes, level.name, level.label))
            elif None in values:
                found.append(_some_lack(cluster, gpu_class, nodes, level.name, level.label))
            elif len(nodes) > 1 and len(set(values)) == len(nodes):
                message = (
                    f"cluster {cluster.name}: each of the {len(nodes)} {gpu_class} nodes is its own "
                    f"{level.name} domain ({level.label}): a run requiring {level.name} fits on one node"
                )
                hint = "check the label's values, or declare the level the nodes share instead"
                found.append(first.at("labels").problem("R46", message, hint).as_warning())
    return found


def _missing_level(
    cluster: Cluster, gpu_class: str, nodes: list[NodeFacts], name: str, label: str
) -> Problem:
    first = min(nodes, key=lambda n: n.name)
    message = (
        f"cluster {cluster.name}: no {gpu_class} node carries level {name}'s label {label}: Kueue "
        "leaves every one of them out of topology-aware scheduling"
    )
    hint = f"{_carry(gpu_class, nodes)}; set the level's label to the one that names the {name}"
    return first.at("labels").problem("R46", message, hint).as_warning()


def _some_lack(cluster: Cluster, gpu_class: str, nodes: list[NodeFacts], name: str, label: str) -> Problem:
    """Kueue leaves a node without any level's label out of its topology (v0.19.2
    pkg/util/tas/node.go NodeMatchesFlavor): no topology-aware run lands on it."""
    lacking = sorted(n.name for n in nodes if label not in n.labels)
    first = min((n for n in nodes if label not in n.labels), key=lambda n: n.name)
    shown = ", ".join(lacking[:_SHOWN]) + (
        f" and {len(lacking) - _SHOWN} more" if len(lacking) > _SHOWN else ""
    )
    they = "it" if len(lacking) == 1 else "them"
    message = (
        f"cluster {cluster.name}: {len(lacking)} of the {len(nodes)} {gpu_class} nodes lack level {name}'s "
        f"label {label} ({shown}): Kueue leaves {they} out of topology-aware scheduling"
    )
    hint = f"label {they} with {label}, or expect no run on {they} (their GPUs still count as quota)"
    return first.at("labels").problem("R46", message, hint).as_warning()


def _preset_warnings(cluster: Cluster, by_class: dict[str, list[NodeFacts]]) -> list[Problem]:
    if "topologyLabels" not in cluster.model_fields_set:
        return []
    chosen, sources = cluster.topologyLabels, sources_of(cluster)
    found: list[Problem] = []
    for gpu_class, nodes in sorted(by_class.items()):
        carried = {key for node in nodes for key in node.labels}
        levels = [(name, keys) for name, keys in _level_names(sources) if keys]
        if isinstance(chosen, str):  # a preset: it matches when any of its labels is there
            looked = [key for _, keys in levels for key in keys]
            if looked and not carried.intersection(looked):
                found.append(_warning(cluster, gpu_class, nodes, f"preset {chosen}", looked, sources))
            continue
        for name, keys in levels:
            if not carried.intersection(keys):
                found.append(_warning(cluster, gpu_class, nodes, name, keys, sources))
    return found


_DOMAIN = {"networkDomain": "network domain", "acceleratorDomain": "accelerator domain"}


def _warning(
    cluster: Cluster,
    gpu_class: str,
    nodes: list[NodeFacts],
    source: str,
    looked: list[str],
    sources: TopologyLabels,
) -> Problem:
    first = min(nodes, key=lambda n: n.name)
    carried = {key for node in nodes for key in node.labels}
    carry = _carry(gpu_class, nodes)
    domain = _DOMAIN.get(source, "network and accelerator domain")
    own = (
        f"each of its {len(nodes)} nodes is its own {domain}"
        if len(nodes) > 1
        else f"its node is its own {domain}"
    )
    label = "preset" if source.startswith("preset") else f"{source} keys"
    explicit = ", ".join(
        f"{name}: [{', '.join(keys) if carried.intersection(keys) else 'LABEL'}]"
        for name, keys in _level_names(sources)
    )
    return (
        first.at("labels")
        .problem(
            "R46",
            f"cluster {cluster.name}: no {gpu_class} node carries a label of topologyLabels' "
            f"{label.replace('preset', source)} ({', '.join(looked)}): {own} (R14)",
            f"{carry}; write the labels that group them in the explicit form "
            f"`topologyLabels: {{{explicit}}}`, "
            "LABEL being the node label whose value names the rack or fabric",
        )
        .as_warning()
    )


def _carry(gpu_class: str, nodes: list[NodeFacts]) -> str:
    """The labels the class's nodes carry that could name a domain, a few of them."""
    carried = {key for node in nodes for key in node.labels}
    offered = sorted(key for key in carried if not key.startswith(_NOT_TOPOLOGY))
    shown = ", ".join(offered[:_SHOWN]) + (
        f" and {len(offered) - _SHOWN} more" if len(offered) > _SHOWN else ""
    )
    they = f"the {gpu_class} nodes carry" if len(nodes) > 1 else f"the {gpu_class} node carries"
    return (
        f"{they} {shown}"
        if offered
        else f"{they} no label besides Kubernetes', the cloud's and the GPU's own"
    )

"""Explanations as text for people and JSON for machines (same facts, deterministic bytes)."""

from __future__ import annotations

from taugen.commands.explain.gpu_class import ClassExplanation
from taugen.commands.explain.node import NodeExplanation
from taugen.compile.slot import SLOT
from taugen.core.jsontext import dumps
from taugen.load.inventory import GPU
from taugen.resolve.labels import GPU_CLASS, HOSTNAME

NO_LABELS = "labels: none (no rule matches its vmSize)"


def node_json(found: NodeExplanation) -> str:
    return dumps(
        {
            "cluster": found.cluster,
            "node": found.name,
            "vmSize": found.vm_size,
            "gpus": found.gpus,
            "ready": found.ready,
            "readyReason": found.ready_reason,
            "gpuClass": found.gpu_class,
            "labels": [
                {"key": o.key, "value": o.value, "source": o.source, "from": o.origin, "rule": o.rule}
                | ({"overrides": list(o.overrides)} if o.overrides else {})
                for o in found.labels
            ],
            "hostname": found.hostname,
            "countsTowardQuota": found.counts_toward_quota,
            "countsTowardSlots": found.counts_toward_slots,
            "flavor": found.flavor,
        }
    )


def node_text(found: NodeExplanation) -> str:
    lines = [
        f"node {found.name} in cluster {found.cluster}",
        f"  vmSize  {found.vm_size or 'unknown'}",
        f"  GPUs    {found.gpus} {GPU}",
        f"  ready   {found.ready_reason}",
        "labels taugen writes on the node (R29):" if found.labels else NO_LABELS,
    ]
    for origin in found.labels:
        lines.append(f"  {origin.key}={origin.value}")
        lines.append(f"      {origin.source}: {origin.origin} [{origin.rule}]")
        lines += [f"      overrides {earlier}" for earlier in origin.overrides]
    if found.hostname is not None:
        lines.append(f"  host level {HOSTNAME}={found.hostname}: the kubelet's label, not written by taugen")
    return "\n".join([*lines, *_counting(found)]) + "\n"


def _counting(found: NodeExplanation) -> list[str]:
    if found.gpu_class is None:
        return [
            "counts: no gpu-class, so no GPU quota and no slot (R26, R27); not in the topology (R17)",
            f"flavor: {found.flavor} (no nodeLabels: CPU-only work may land here, R23)",
        ]
    slot = (
        f"Ready: it gives one {SLOT} to the class (R27)"
        if found.ready
        else "not Ready: it gives no torchrun-host-slot while its GPUs still count (R27)"
    )
    return [
        "counts:",
        f"  quota  its {found.gpus} {GPU} count toward gpu-class {found.gpu_class}, Ready or not (R26)",
        f"  slots  {slot}",
        f"flavor: {found.flavor} (nodeLabels {GPU_CLASS}={found.gpu_class}, "
        f"taint {', '.join(found.taints)}, R24)",
    ]


def class_json(found: ClassExplanation) -> str:
    return dumps(
        {
            "cluster": found.cluster,
            "gpuClass": found.gpu_class,
            "flavor": found.flavor,
            "nodes": [
                {
                    "name": n.name,
                    "ready": n.ready,
                    "gpus": n.gpus,
                    "networkDomain": n.network_domain,
                    "acceleratorDomain": n.accelerator_domain,
                }
                for n in found.nodes
            ],
            "gpus": found.gpus,
            "readySlots": found.ready_slots,
            "gpuQuota": found.quota,
            "highWaterMark": found.high_water,
            "domains": [d.as_json() for d in found.domains],
            **({"extraQuota": dict(found.extra)} if found.extra else {}),
        }
    )


def class_text(found: ClassExplanation) -> str:
    mark = "none (not built yet)" if found.high_water is None else str(found.high_water)
    lines = [
        f"gpu-class {found.gpu_class} in cluster {found.cluster}: flavor {found.flavor}",
        f"  nodes {len(found.nodes)}, GPUs {found.gpus}, Ready slots {found.ready_slots} (R27)",
        f"  GPU quota {found.quota}, high-water mark in the lock {mark} (R26)",
        *([f"  extra quota {', '.join(f'{r} {q}' for r, q in found.extra)} (R44)"] if found.extra else []),
        "nodes:",
        *[
            f"  {n.name}  GPUs {n.gpus}, {'Ready' if n.ready else 'not Ready'}, "
            f"network-domain {n.network_domain}, accelerator-domain {n.accelerator_domain}"
            for n in found.nodes
        ],
        "domains:",
        *[
            f"  {d.shown_level:<18} {d.name}: {d.hosts} hosts, {d.gpus} GPUs, {d.ready} Ready"
            for d in found.domains
        ],
    ]
    if not found.nodes:
        at = lines.index("nodes:")
        lines[at : at + 2] = ["nodes: none: the class vanished; its flavor and quota are kept (R26)"]
    return "\n".join(lines) + "\n"

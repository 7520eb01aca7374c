"""Drift as text for people and JSON for automation."""

from __future__ import annotations

from taugen.commands.drift.compare import Drift
from taugen.core.jsontext import dumps


def as_json(found: Drift) -> str:
    return dumps(
        {
            "cluster": found.cluster,
            "drift": found.drifted,
            "labels": [
                {
                    "node": d.node,
                    "missing": dict(d.missing),
                    "extra": dict(d.extra),
                    "different": {k: {"tree": t, "live": v} for k, (t, v) in d.different.items()},
                }
                for d in found.labels
            ],
            "notInInventory": list(found.not_in_inventory),
            "notInCluster": list(found.not_in_cluster),
            "gpuCapacity": [
                {"node": g.node, "inventory": g.inventory, "live": g.live} for g in found.gpu_capacity
            ],
        }
    )


def as_text(found: Drift) -> str:
    lines = []
    for d in found.labels:
        lines += [f"labels   {d.node}: {k}={v} missing on the node" for k, v in d.missing.items()]
        lines += [
            f"labels   {d.node}: {k} is {v!r} on the node, the tree says {t!r}"
            for k, (t, v) in d.different.items()
        ]
        lines += [f"labels   {d.node}: {k}={v} on the node, not in the tree" for k, v in d.extra.items()]
    lines += [f"nodes    {n}: in the cluster, not in the inventory" for n in found.not_in_inventory]
    lines += [f"nodes    {n}: in the inventory, not in the cluster" for n in found.not_in_cluster]
    lines += [
        f"gpus     {g.node}: {g.live} nvidia.com/gpu allocatable in the cluster, "
        f"{g.inventory} in the inventory"
        for g in found.gpu_capacity
    ]
    if not found.drifted:
        return f"cluster {found.cluster}: no drift\n"
    hint = "`taugen inventory import` then `taugen build` brings Git up to date; a sync fixes labels"
    return "\n".join([f"cluster {found.cluster}: drift", *lines, hint]) + "\n"

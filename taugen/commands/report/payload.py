"""The page's data: one compact JSON document per cluster, read by the page's script.

Hosts are arrays `[name, class index, GPUs, ready 0/1, label set index]`; a domain is
`[name, children or hosts]`, with name 0 for a singleton domain of its only host (R14:
`singleton-<hostname>`), which is most domains of a large fleet. Labels other than the
topology levels are interned: a fleet has few distinct sets. A cluster that declares its levels
(R42) also has `levels`, `[name, label]` per level above the host, top to bottom (without it the
page draws §2's site, network-domain, accelerator-domain). A cluster whose queues' flavor order a
profile's list makes, or where a tenant sets flavorFungibility (R47), has `flavorOrder`; one with
groups (R51) has `groups`, each with its classes.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from typing import Any

from taugen.commands.report.model import ClusterSection, Host, ReportDomain
from taugen.commands.report.topology import CONTRACT_PATH


class _Encoder:
    """Hosts and domains as arrays; label sets interned as they are met."""

    def __init__(self, classes: list[str], path_labels: tuple[str, ...]) -> None:
        self.class_index = {name: i for i, name in enumerate(classes)}
        self.path_labels = path_labels  # the levels' labels: the page reads them from the path
        self.sets: dict[tuple[tuple[str, str], ...], int] = {}

    def host(self, host: Host) -> list[Any]:
        labels = tuple((k, v) for k, v in host.labels.items() if k not in self.path_labels)
        label_set = self.sets.setdefault(labels, len(self.sets))
        return [host.name, self.class_index[host.gpu_class], host.gpus, int(host.ready), label_set]

    def domain(self, domain: ReportDomain) -> list[Any]:
        if domain.children:
            return [domain.name, [self.domain(c) for c in domain.children]]
        hosts = domain.hosts
        singleton = len(hosts) == 1 and domain.name == "singleton-" + hosts[0].name
        return [0 if singleton else domain.name, [self.host(h) for h in hosts]]


def cluster_data(view: ClusterSection) -> dict[str, Any]:
    hosts = [h for site in view.sites for h in site.all_hosts()]
    classes = sorted({c.gpu_class for c in view.classes} | {h.gpu_class for h in hosts})
    encoder = _Encoder(classes, tuple(label for _, label in view.levels or CONTRACT_PATH))
    sites = [encoder.domain(s) for s in view.sites]
    runs = view.simulation.runs if view.simulation else ()
    return {
        "name": view.name,
        **({"levels": [list(level) for level in view.levels]} if view.levels else {}),
        "classes": classes,
        "typical": _typical(hosts, encoder.class_index),
        "sets": [dict(labels) for labels in encoder.sets],
        "sites": sites,
        "marks": {k: [m.mark, m.detail] for k, m in view.diff.marks.items()} if view.diff else {},
        "runs": [[r.name, r.namespace, r.status, r.reason, r.flavor, list(r.ranks)] for r in runs],
        **_model(view),
    }


def _model(view: ClusterSection) -> dict[str, Any]:
    """R47, R51: `flavorOrder` and `groups`, only for a cluster that has them (a page without
    them holds the same data as before)."""
    found: dict[str, Any] = {}
    if (order := view.flavor_order) is not None:
        found["flavorOrder"] = {
            "flavors": list(order.flavors),
            "lists": [{"profile": name, "gpuClasses": list(classes)} for name, classes in order.lists],
            "flavorFungibility": [{"tenant": ns, **policy} for ns, policy in order.fungibility],
        }
    groups: dict[str, dict[str, Any]] = {}
    for row in view.groups:
        group = groups.setdefault(
            row.group,
            {"group": row.group, "cohort": row.cohort, "parent": row.parent, "tenants": list(row.tenants)},
        )
        group.setdefault("classes", []).append(
            {
                "gpuClass": row.gpu_class,
                "guaranteed": row.guaranteed,
                "own": row.own,
                "borrowingLimit": row.borrowing_limit,
                "lendingLimit": row.lending_limit,
                "borrowable": row.borrowable,
            }
        )
    if groups:
        found["groups"] = list(groups.values())
    return found


def script_json(data: Any) -> str:
    """JSON safe inside a <script> element: no `</` can close it early."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def _typical(hosts: list[Host], class_index: dict[str, int]) -> dict[int, int]:
    """The most common GPU count of a class's hosts: the width a removed host is drawn with (its
    base Node carries labels only)."""
    counts: dict[str, Counter[int]] = defaultdict(Counter)
    for host in hosts:
        if not host.removed:
            counts[host.gpu_class][host.gpus] += 1
    return {class_index[c]: found.most_common(1)[0][0] for c, found in sorted(counts.items())}

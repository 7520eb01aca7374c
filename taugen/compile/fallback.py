"""The GPU flavors' order in the ClusterQueue's resource group (SPEC R47, R25).

Kueue tries a resource group's flavors in the order the ClusterQueue lists them, so a profile's
order of preference (`gpu_class: [h200-141gb, h100-80gb]`) is the queue's order. Every profile of
a cluster shares its queues: a class some profile lists before another comes first; classes no
list orders keep R25's order (by name); two profiles that order two classes both ways are refused.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from taugen.core.errors import InputError
from taugen.load.profiles import LoadedProfile

Before = dict[tuple[str, str], tuple[str, ...]]  # (a, b): a comes before b, by these profiles


def flavor_order(classes: Sequence[str], profiles: Sequence[LoadedProfile]) -> list[str]:
    """`classes` (the cluster's, in R25's order) in an order consistent with every profile's list;
    no list: `classes` as given. An InputError at the second of two contradicting profiles."""
    return ordered(classes, preference_order(profiles))


def queue_order(classes: Sequence[str], lists: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """flavor_order from lists already checked (a catalog's entries: name, classes)."""
    return ordered(classes, order_of(lists))


def ordered(classes: Sequence[str], before: Before) -> list[str]:
    """`classes` sorted by `before` (acyclic), ties in their given order (Kahn's algorithm)."""
    present = set(classes)
    rank = {c: i for i, c in enumerate(classes)}
    edges = {(a, b) for a, b in before if a in present and b in present}
    waiting = {c: sum(1 for _, b in edges if b == c) for c in classes}
    ready = [(rank[c], c) for c in classes if waiting[c] == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        _, c = heapq.heappop(ready)
        order.append(c)
        for a, b in sorted(edges):
            if a == c:
                waiting[b] -= 1
                if waiting[b] == 0:
                    heapq.heappush(ready, (rank[b], b))
    return order  # the relation is acyclic (preference_order refuses a cycle): every class is here


def preference_order(profiles: Sequence[LoadedProfile]) -> Before:
    """The transitive order the profiles' lists give, each pair with the profiles it comes from;
    an InputError at the first profile whose list contradicts the ones before it."""
    before: Before = {}
    for loaded in profiles:
        policy = loaded.profile.policy
        if not policy.fallback:
            continue
        name = loaded.profile.metadata.name
        if clash := contradiction(before, policy.classes, name):
            where = loaded.doc.at(["policy", "gpu_class"], key=True)
            raise InputError([where.problem("R47", *clash)])
        add_list(before, policy.classes, name)
    return before


def order_of(lists: Sequence[tuple[str, Sequence[str]]]) -> Before:
    """preference_order of lists already checked (a catalog's entries: name, classes)."""
    before: Before = {}
    for name, listed in lists:
        if len(listed) > 1 and contradiction(before, listed, name) is None:
            add_list(before, listed, name)
    return before


def contradiction(
    before: Before, listed: Sequence[str], name: str, who: str = "profile"
) -> tuple[str, str] | None:
    """The message and hint when `listed` (of `who` `name`) orders two classes against `before`."""
    for i, a in enumerate(listed):
        for b in listed[i + 1 :]:
            if (b, a) in before:
                others = ", ".join(p for p in before[(b, a)] if p != name)
                return (
                    f"{who} {name} lists {a} before {b}, but profile {others} puts {b} before {a}: the "
                    "cluster's queues hold the flavors in one order, and Kueue tries them in that order",
                    f"list {a} and {b} in the same order",
                )
    return None


def add_list(before: Before, listed: Sequence[str], name: str) -> None:
    for i, a in enumerate(listed):
        for b in listed[i + 1 :]:
            _add(before, a, b, (name,))


def _add(before: Before, a: str, b: str, by: tuple[str, ...]) -> None:
    """a before b, and everything that follows from it (the closure stays transitive)."""
    if (a, b) in before:
        return
    before[(a, b)] = by
    for (x, y), why in list(before.items()):
        if y == a and (x, b) not in before:
            _add(before, x, b, _union(why, by))
        if x == b and (a, y) not in before:
            _add(before, a, y, _union(by, why))


def _union(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    return first + tuple(p for p in second if p not in first)

"""R49: Kueue v0.19.2's dominant resource share (pkg/cache/scheduler/fair_sharing.go) and the
fairSharing.weight it divides by, as simulate computes them."""

from __future__ import annotations

import math

import pytest

from taugen.api.kueue.common import FairSharing
from taugen.context.kueue_tree import fair_weight
from taugen.engines.admission.fair import Share, compare, share
from taugen.schedulers.kueue.quota import QuotaTree
from taugen.schedulers.kueue.quota_model import Quota, SimCohort, SimQueue

GPU = ("h200", "nvidia.com/gpu")
SLOT = ("h200", "tau.azure.com/torchrun-host-slot")


def _tree(weight_a: float = 2.0) -> QuotaTree:
    """team-a and team-b guaranteed 8 GPUs (1 slot), the shared queue 32 (4 slots)."""

    def queue(name: str, gpus: int, slots: int, weight: float) -> SimQueue:
        return SimQueue(name, {GPU: Quota(gpus), SLOT: Quota(slots)}, "taugrid", weight=weight)

    queues = (queue("a", 8, 1, weight_a), queue("b", 8, 1, 1.0), queue("shared", 32, 4, 1.0))
    return QuotaTree.of(queues, (SimCohort("taugrid"),))


def test_a_queue_within_its_quota_and_the_root_have_share_zero() -> None:
    tree = _tree()
    tree.add("a", {GPU: 8, SLOT: 1})
    assert share(tree.queues["a"]) == Share(2.0, 0.0)
    assert share(tree.cohorts["taugrid"]) == Share(1.0, 0.0)


def test_the_dominant_resource_is_borrowed_per_mille_of_what_the_parent_could_lend() -> None:
    """b borrows 32 of 48 GPUs and 4 of 6 slots: 666.7 per mille, weight 1; a borrows 8 GPUs
    and no slot: 166.7, over weight 2."""
    tree = _tree()
    tree.add("b", {GPU: 40, SLOT: 5})
    tree.add("a", {GPU: 16, SLOT: 1})
    b, a = share(tree.queues["b"]), share(tree.queues["a"])
    assert (b.weight, b.borrowing, b.borrowed) == (1.0, True, frozenset({GPU, SLOT}))
    assert b.value == pytest.approx(4000 / 6)
    assert a.borrowed == frozenset({GPU})
    assert a.value == pytest.approx(8000 / 48 / 2)
    assert compare(a, b) == -1 and compare(b, a) == 1


def test_weight_zero_is_an_infinite_share_and_two_of_them_compare_by_ratio() -> None:
    tree = _tree(weight_a=0.0)
    tree.add("a", {GPU: 16})
    tree.add("b", {GPU: 40})
    a, b = share(tree.queues["a"]), share(tree.queues["b"])
    assert a.value == math.inf and a.zero_weight_borrows
    assert compare(a, b) == 1
    assert compare(a, Share(0.0, a.ratio * 2)) == -1
    assert compare(Share(0.0, 0.0), Share(1.0, 0.0)) == 0  # weight 0 not borrowing: share 0


@pytest.mark.parametrize(
    ("written", "weight"), [(None, 1.0), (2, 2.0), ("0.99", 0.99), ("500m", 0.5), (0, 0.0)]
)
def test_a_weight_is_read_as_kueue_parses_it(written: int | str | None, weight: float) -> None:
    found = None if written is None else FairSharing(weight=written)
    assert fair_weight(found) == weight

"""§4's tree-wide metadata, decorated purely (issue 18): new manifests, the input untouched,
a generator as good as a list."""

from __future__ import annotations

import copy

from taugen.compile.decorate import SKIP_DRY_RUN, decorate
from taugen.compile.manifest import MANAGED_BY, SYNC_OPTIONS, SYNC_WAVE, Manifest, object_
from taugen.schedulers.kueue import Kueue

MANIFESTS = (
    Manifest("priority-classes.yaml", object_("scheduling.k8s.io/v1", "PriorityClass", "p", value=1)),
    Manifest("kueue/queue.yaml", object_("kueue.x-k8s.io/v1beta2", "ClusterQueue", "q", spec={})),
)


def test_decorate_returns_new_manifests_and_leaves_its_input_as_it_was() -> None:
    before = copy.deepcopy(MANIFESTS)
    out = decorate(MANIFESTS, Kueue())
    assert before == MANIFESTS
    assert [m.file for m in out] == [m.file for m in MANIFESTS]
    priority, queue = (m.obj["metadata"] for m in out)
    assert priority == {"name": "p", "labels": {MANAGED_BY: "taugen"}, "annotations": {SYNC_WAVE: "-2"}}
    assert queue["labels"] == {MANAGED_BY: "taugen"}
    assert queue["annotations"][SYNC_OPTIONS] == SKIP_DRY_RUN


def test_decorate_takes_a_generator() -> None:
    """The in-place version consumed a generator and returned []."""
    assert decorate((m for m in MANIFESTS), Kueue()) == decorate(MANIFESTS, Kueue())
    assert len(decorate((m for m in MANIFESTS), Kueue())) == 2

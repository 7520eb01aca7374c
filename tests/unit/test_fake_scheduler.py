"""A scheduler is its package and one registry line (issue 33): a fake one, written here in the
tests with its own cluster entry and registered through the registry's test hook, builds a tree
from a taugen.yaml that names it (`scheduler: fake`) with no product change."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal

import pytest
from pydantic import Field

from taugen.compile.common import NO_TIERS
from taugen.compile.guarantee import NO_GUARANTEES, Guarantees, TenantGuarantee
from taugen.compile.manifest import Manifest, object_
from taugen.compile.quota import ClassQuota
from taugen.core.errors import InputError
from taugen.core.quantity import Quantity
from taugen.engines.runs.podsets import PodSet
from taugen.engines.runs.resolution import RunContext
from taugen.load.project import load_project
from taugen.models.project import Capabilities, Cluster, Tenant
from taugen.models.tiers import Tiers
from taugen.resolve.cluster import ResolvedCluster
from taugen.schedulers.kueue import Kueue
from taugen.schedulers.protocol import Backend, Check, Files, Placeable, QuotaMarks, RunContract
from taugen.schedulers.registry import registered, scheduler_of
from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, read_objects, write_project

QUEUES = "fake-queues.yaml"


class _Contract:
    suspend = False

    def owner_labels(self, context: RunContext) -> dict[str, str]:
        return {"fake.example/queue": context.tenant.namespace}

    def owner_annotations(self, context: RunContext) -> dict[str, str]:
        return {}

    def pod_labels(self, context: RunContext) -> dict[str, str]:
        return {}

    def pod_annotations(self, context: RunContext, grouped: bool) -> dict[str, str]:
        return {}

    def pod_fields(self, context: RunContext) -> dict[str, Any]:
        return {}

    def pod_set_annotations(self, context: RunContext, pod_set: PodSet) -> dict[str, str]:
        return {}


NOTHING = Capabilities(
    cohorts=False,
    lending_limits=False,
    slices=False,
    multikueue=False,
    queue_health=False,
    covered_resources=False,
)


class FakeCluster(Cluster):
    """The fake's cluster entry: the common fields, its tenants, and its own key."""

    capabilities: ClassVar[Capabilities] = NOTHING
    tenants: list[Tenant] = Field(min_length=1)
    scheduler: Literal["fake"]


class FakeScheduler:
    """The least a scheduler provides: one ConfigMap of GPU quota per class, in its own file."""

    name = "fake"
    model: type[Cluster] = FakeCluster
    display_name = "Fake Scheduler"
    crd_groups: tuple[str, ...] = ()
    catalog_namespace = "fake-system"
    files = Files(queues=QUEUES)
    capabilities = NOTHING
    contract: RunContract = _Contract()

    def compile(
        self,
        cluster: ResolvedCluster,
        quotas: Sequence[ClassQuota],
        guarantees: Guarantees = NO_GUARANTEES,
        tiers: Tiers = NO_TIERS,
    ) -> list[Manifest]:
        data = {q.gpu_class: str(q.gpus) for q in quotas}
        obj = object_("v1", "ConfigMap", "fake-queues", namespace="fake-system", data=data)
        return [Manifest(QUEUES, obj)]

    def wave(self, manifest: Manifest) -> str:
        return "0"

    def preflight(self, context: RunContext, request: dict[str, Quantity]) -> Placeable:
        return Placeable([Check("quota", True, "the fake admits everything")], go_on=False)

    def quota_marks(self, docs: Sequence[dict[str, Any]], cluster: Cluster, path: Path) -> QuotaMarks:
        return QuotaMarks({k: int(v) for d in docs for k, v in d.get("data", {}).items()})

    def tenant_queue(self, cluster: Cluster, namespace: str, guarantees: Guarantees) -> str:
        return namespace

    def tenant_preemption(self, guarantee: TenantGuarantee) -> dict[str, Any] | None:
        return None

    def capacity_lost(self, kind: str, path: tuple[Any, ...], action: str, old: Any, new: Any) -> bool:
        return False


def test_the_fake_is_a_scheduler() -> None:
    backend: Backend = FakeScheduler()  # mypy checks the Protocol here
    assert backend.files == Files(queues=QUEUES, flavors="")


def test_a_registered_fake_scheduler_builds_its_tree(tmp_path: Path, run: Run, monkeypatch: Any) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0"), gpu_node("h200-1")]), scheduler="fake")
    monkeypatch.chdir(tmp_path)
    with registered(FakeScheduler()):
        assert type(load_project(project).project.clusters[0]) is FakeCluster
        result = run("build", "-c", project)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "c1"
    objects = read_objects(folder)
    assert objects["ConfigMap/fake-system/fake-queues"]["data"] == {"h200-141gb": "16"}
    assert (folder / QUEUES).is_file()
    assert not (folder / "clusterqueue.yaml").exists()  # nothing of Kueue's own
    assert isinstance(scheduler_of("kueue"), Kueue)  # the hook put the listed ones back
    with pytest.raises(InputError) as refused:  # and the project model without the fake's entry
        load_project(project)
    assert [p.message for p in refused.value.problems] == [
        "clusters.0: scheduler: Input should be 'kueue' or 'kai'"
    ]

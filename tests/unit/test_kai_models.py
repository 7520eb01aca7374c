"""The project and run fields of SPEC §8: scheduler, gpuQuota, weight, queueLabelKey, grove; workload,
replicas, size (K5). A field one scheduler or workload does not read is refused, never ignored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter, ValidationError

from taugen.api.kai import SCHEMA_DIR, kai_schema_files
from taugen.models.project import Project
from taugen.models.run import Run, Workload
from taugen.schedulers.kai.model import KaiCluster
from taugen.schedulers.kueue.model import KueueCluster
from tests.conftest import Run as CliRun
from tests.support.helpers import write_project
from tests.support.runs import run_doc

CLUSTER: TypeAdapter[Any] = TypeAdapter(get_args(Project.model_fields["clusters"].annotation)[0])  # the union


def cluster(**fields: Any) -> dict[str, Any]:
    return {"name": "c1", "inventory": "inventory.yaml", "tenants": [{"namespace": "team-a"}], **fields}


def test_kai_cluster_defaults() -> None:
    found = CLUSTER.validate_python(cluster(scheduler="kai"))
    assert isinstance(found, KaiCluster)
    assert (found.scheduler, found.queueLabelKey, found.grove) == (
        "kai",
        "kai.scheduler/queue",
        False,
    )
    assert (found.tenants[0].gpuQuota, found.tenants[0].weight) == (0, 1)


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"grove": True}, "grove"),
        ({"queueLabelKey": "runai/queue"}, "queueLabelKey"),
        # T7: weight is no longer refused on Kueue
        ({"tenants": [{"namespace": "team-a", "gpuQuota": 8, "weight": 2}]}, "gpuQuota"),
    ],
)
def test_kai_fields_on_a_kueue_cluster_are_refused(fields: dict[str, Any], named: str) -> None:
    with pytest.raises(ValidationError) as err:
        CLUSTER.validate_python(cluster(**fields))
    assert err.value.errors()[0]["msg"] == f"cluster c1 sets {named}, which only scheduler kai reads"


def test_the_scheduler_picks_the_cluster_model() -> None:
    """Issue 33: the cluster entry is a union discriminated by `scheduler`, kueue when omitted."""
    assert type(CLUSTER.validate_python(cluster())) is KueueCluster
    assert type(CLUSTER.validate_python(cluster(scheduler="kueue"))) is KueueCluster
    assert type(CLUSTER.validate_python(cluster(scheduler="kai"))) is KaiCluster
    with pytest.raises(ValidationError) as err:
        CLUSTER.validate_python(cluster(scheduler="volcano"))
    assert err.value.errors()[0]["msg"] == "scheduler: Input should be 'kueue' or 'kai'"


def test_a_bad_queue_label_key_is_refused() -> None:
    with pytest.raises(ValidationError, match="is not a label key"):
        CLUSTER.validate_python(cluster(scheduler="kai", queueLabelKey="run ai/queue"))


def test_build_refuses_kai_fields_on_kueue_with_a_position(tmp_path: Path, run: CliRun) -> None:
    project = write_project(tmp_path, grove=True)
    result = run("build", "-c", project)
    assert result.exit_code == 2
    assert "taugen.yaml:" in result.output and "only scheduler kai reads [K2]" in result.output
    assert not (tmp_path / "out").exists()


def test_leaderworkerset_shape() -> None:
    doc = run_doc("p", workload="leaderworkerset", replicas=3, size=4)
    del doc["workers"]
    found = Run.model_validate(doc)
    assert (found.workload, found.replicas, found.size, found.workers) == (Workload.LEADERWORKERSET, 3, 4, 1)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"replicas": 2}, "replicas does not apply to workload job"),
        ({"workload": "leaderworkerset"}, "workers does not apply to workload leaderworkerset"),
        (
            {"workload": "leaderworkerset", "launcher": "torchrun"},
            "workers, launcher do not apply to workload leaderworkerset",
        ),
    ],
)
def test_fields_of_the_other_workload_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as err:
        Run.model_validate(run_doc("p", **fields))
    assert err.value.errors()[0]["msg"] == message


def test_committed_kai_schemas_are_the_generated_ones() -> None:
    """taugen/api/kai -> schemas/<group>/<kind>_<version>.json (`taugen schema --out schemas`)."""
    committed = {
        name: (SCHEMA_DIR / name).read_bytes() for name in kai_schema_files() if (SCHEMA_DIR / name).is_file()
    }
    assert committed == kai_schema_files(), "regenerate with `taugen schema --out schemas`"


@pytest.mark.parametrize(
    ("doc", "valid"),
    [
        ({"gpu": {"quota": 0.5, "overQuotaWeight": 1, "limit": -1}}, True),
        ({"gpu": {"quota": "8"}}, False),  # the CRD's `type: number`
        ({"gpus": {"quota": 8}}, False),  # the API server would prune it
    ],
)
def test_queue_resources_are_numbers_of_known_resources(doc: dict[str, Any], valid: bool) -> None:
    queue = {
        "apiVersion": "scheduling.run.ai/v2",
        "kind": "Queue",
        "metadata": {"name": "q"},
        "spec": {"resources": doc},
    }
    errors = list(
        Draft202012Validator(
            json.loads((SCHEMA_DIR / "scheduling.run.ai/queue_v2.json").read_text())
        ).iter_errors(queue)
    )
    assert (not errors) == valid

"""Issue 32: Python refuses to turn more than 4,300 digits into an int (and a Fraction), with a
ValueError; a percentage, a `nvidia.com/gpu.replicas` label, a node-affinity bound or a rank key
that long was a traceback. Each reader bounds its digits, and the value is refused at its
position or read as no number."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from taugen.core.errors import InputError
from taugen.engines.admission.workloads import load_workloads
from taugen.models.node_filters import NodeRequirement
from tests.support.helpers import gpu_node, inventory, write_yaml
from tests.support.unit import line_of, problems_of, resolve_project, run_build, write_project

DIGITS = "9" * 4400


def test_a_percentage_of_4400_digits_is_refused_at_it(tmp_path: Path) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h-0")]))
    data = yaml.safe_load(project.read_text())
    data["clusters"][0]["tenants"][0]["guaranteed"] = {"h200-141gb": f"50.{DIGITS}%"}
    write_yaml(project, data)
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.rule, problem.line) == ("T4", line_of(project, "h200-141gb: 50."))
    assert "is neither a GPU count nor a percentage" in problem.message


def test_a_replicas_label_of_4400_digits_is_no_sharing_factor(tmp_path: Path) -> None:
    node = gpu_node("h-0", labels={"nvidia.com/gpu.replicas": DIGITS})
    resolved = resolve_project(write_project(tmp_path, inventory([node])))
    assert resolved.sharing == {}  # as any label that is no count


def test_a_node_affinity_bound_of_4400_digits_never_matches() -> None:
    requirement = NodeRequirement(key="rank", operator="Gt", values=("1",))
    assert requirement.matches({"rank": DIGITS}) is False


def test_a_rank_key_of_4400_digits_is_a_problem_at_its_run(tmp_path: Path) -> None:
    run = {
        "metadata": {"name": "r1", "namespace": "team-a"},
        "createdAt": "2026-11-29T10:00:00Z",
        "profile": "h200-train",
        "workers": 2,
        "resources": {"nvidia.com/gpu": 8},
        "admitted": {"ranks": {DIGITS: "x1"}},
    }
    path = write_yaml(tmp_path / "set.yaml", {"kind": "WorkloadSet", "runs": [run]})
    with pytest.raises(InputError) as err:
        load_workloads(path)
    (problem,) = err.value.problems
    assert problem.rule == "S1" and "but the run has pods 0..1" in problem.message

"""R47 in the run contract (§7): a run whose class is a list carries no gpu-class node selector
(Kueue's flavor assignment injects the chosen flavor's nodeLabels and tolerations), only a required
node affinity `gpu-class In [list]`, which Kueue's flavor assigner checks against each flavor's
nodeLabels (flavorassigner.go checkFlavorForPodSets, flavorSelector: v0.19.2), so that no other
class's flavor is chosen. Tolerations, the TAS annotation and the torchrun host slot are the same
for every GPU flavor. KAI places by a node selector: a list is refused there. Preflight is
eligible when one listed class is, and names the first in the queues' order."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from taugen.commands.build import BuildOptions, build
from taugen.commands.preflight.check import preflight
from taugen.core.errors import InputError
from taugen.engines.runs.render import render
from taugen.engines.runs.resolution import resolve_run
from tests.conftest import Run
from tests.support.helpers import write_yaml
from tests.support.kai import build_kai_lab
from tests.support.runs import build_lab, context_of, objects_of, run_doc
from tests.support.unit import line_of, profile

GPU_CLASS = "tau.azure.com/gpu-class"
LIST = ["h200-141gb", "a100-80gb"]


def _with_fallback(project: Path) -> Path:
    """The lab with profile h200-else-a100 (its topology as h200-train's), rebuilt."""
    write_yaml(
        project.parent / "profiles" / "h200-else-a100.yaml",
        profile("h200-else-a100", LIST, "same-network-domain"),
    )
    build(BuildOptions(project_file=project))
    return project


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _with_fallback(build_lab(tmp_path_factory.mktemp("lab")))


def _render(project: Path, doc: dict[str, Any], name: str = "run.yaml") -> list[dict[str, Any]]:
    return objects_of(render(context_of(project, doc, name), "manifest"))


def _as_fallback(single: dict[str, Any], classes: list[str]) -> dict[str, Any]:
    """The Job h200-train renders, as R47 says a list changes it: no gpu-class label or node
    selector, the affinity term instead, the profile label of the fallback profile."""
    job = copy.deepcopy(single)
    del job["metadata"]["labels"][GPU_CLASS]
    job["metadata"]["labels"]["tau.azure.com/profile"] = "h200-else-a100"
    pod = job["spec"]["template"]["spec"]
    del pod["nodeSelector"]
    term = {"matchExpressions": [{"key": GPU_CLASS, "operator": "In", "values": classes}]}
    pod["affinity"] = {
        "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}}
    }
    return job


@pytest.mark.parametrize(("workers", "launcher"), [(1, "none"), (3, "torchrun")])
def test_r47_a_list_renders_as_one_class_without_the_node_selector(
    project: Path, workers: int, launcher: str
) -> None:
    single = _render(project, run_doc("h200-train", workers, launcher), "single.yaml")
    found = _render(project, run_doc("h200-else-a100", workers, launcher), "fallback.yaml")
    assert len(found) == len(single)
    assert found[0] == _as_fallback(single[0], LIST)
    assert found[1:] == single[1:]  # a torchrun headless Service and the rest: the same


def test_r47_the_slot_and_tolerations_stay_for_multi_node_torchrun(project: Path) -> None:
    job = _render(project, run_doc("h200-else-a100", 3, "torchrun"))[0]
    pod = job["spec"]["template"]["spec"]
    assert pod["containers"][0]["resources"]["requests"]["tau.azure.com/torchrun-host-slot"] == "1"
    assert pod["tolerations"] == [{"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}]
    assert job["spec"]["template"]["metadata"]["annotations"] == {
        "kueue.x-k8s.io/podset-required-topology": "tau.azure.com/network-domain"
    }


def test_r47_a_runs_list_joins_its_own_node_affinity_in_one_term(project: Path) -> None:
    doc = run_doc(
        "h200-train",
        policy={
            "gpu_class": LIST,
            "node_affinity": [{"key": "kubernetes.io/hostname", "operator": "NotIn", "values": ["h200-a0"]}],
        },
    )
    pod = _render(project, doc)[0]["spec"]["template"]["spec"]
    assert "nodeSelector" not in pod
    assert pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] == {
        "nodeSelectorTerms": [
            {
                "matchExpressions": [
                    {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": ["h200-a0"]},
                    {"key": GPU_CLASS, "operator": "In", "values": LIST},
                ]
            }
        ]
    }


def test_r47_a_runs_list_against_the_queues_order_is_refused_at_its_line(project: Path) -> None:
    doc = run_doc("h200-train", policy={"gpu_class": ["a100-80gb", "h200-141gb"]})
    with pytest.raises(InputError) as info:
        context_of(project, doc, "reversed.yaml")
    path = project.parent / "runs" / "reversed.yaml"
    assert [(p.rule, p.message, p.hint, p.line) for p in info.value.problems] == [
        (
            "R47",
            "the run lists a100-80gb, h200-141gb, but cluster lab's queues hold these flavors in the "
            "order h200-141gb, a100-80gb, and Kueue tries them in that order",
            "list them as h200-141gb, a100-80gb, or give a profile that lists them in your order "
            "(one order per cluster, R47)",
            line_of(path, "gpu_class"),
        )
    ]


def test_r47_a_runs_list_of_classes_no_profile_orders_keeps_r25s_order(project: Path) -> None:
    """gb200 and h200: no list orders them, so the queues hold them by name (gb200 first)."""
    ok = _render(project, run_doc("h200-train", policy={"gpu_class": ["gb200-186gb", "h200-141gb"]}))
    assert "nodeSelector" not in ok[0]["spec"]["template"]["spec"]
    with pytest.raises(InputError) as info:
        context_of(project, run_doc("h200-train", policy={"gpu_class": ["h200-141gb", "gb200-186gb"]}))
    assert [p.rule for p in info.value.problems] == ["R47"]


def test_r47_preflight_names_the_class_the_run_would_get(project: Path) -> None:
    first = preflight(context_of(project, run_doc("h200-else-a100", 2)))
    assert first.eligible
    assert (first.checks[0].id, first.checks[0].message) == (
        "class",
        "h200-141gb: the first listed class that is eligible, in the queues' order h200-141gb, a100-80gb",
    )
    assert [c.id for c in first.checks[1:]] == ["profile", "flavor", "quota", "topology"]
    assert "taugrid-h200-141gb" in first.checks[2].message


def test_r47_preflight_takes_the_next_class_when_the_first_cannot_hold_the_run(project: Path) -> None:
    """The run's node affinity leaves no h200 host: a100-0 (Ready, 8 GPUs) holds it."""
    hosts = {"key": "kubernetes.io/hostname", "operator": "In", "values": ["a100-0"]}
    found = preflight(
        context_of(project, run_doc("h200-else-a100", policy={"node_affinity": [hosts]}), "next.yaml")
    )
    assert found.eligible
    assert found.checks[0].message == (
        "a100-80gb: the first listed class that is eligible, in the queues' order h200-141gb, a100-80gb"
    )
    assert "taugrid-a100-80gb" in found.checks[2].message


def test_r47_preflight_says_why_no_listed_class_is_eligible(project: Path) -> None:
    doc = run_doc("h200-else-a100", resources={"nvidia.com/gpu": 9})  # no host of either class has 9
    found = preflight(context_of(project, doc, "big.yaml"))
    assert not found.eligible
    assert (
        found.checks[0].message == "no listed class is eligible, in the queues' order h200-141gb, a100-80gb"
    )
    assert [c.message.split(":")[0] for c in found.checks[1:]] == ["h200-141gb", "a100-80gb"]


def test_r47_preflight_cli_json_lists_the_class_check(project: Path, run: Run) -> None:
    path = write_yaml(project.parent / "runs" / "cli.yaml", run_doc("h200-else-a100", 2))
    result = run("preflight", path, "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["policy"]["gpu_class"] == LIST
    assert answer["checks"][0] == {
        "id": "class",
        "ok": True,
        "message": "h200-141gb: the first listed class that is eligible, in the queues' order "
        "h200-141gb, a100-80gb",
    }


def test_r47_kai_cannot_choose_among_classes(tmp_path: Path) -> None:
    project = _with_fallback(build_kai_lab(tmp_path))
    path = write_yaml(tmp_path / "runs" / "kai.yaml", run_doc("h200-else-a100", cluster="lab-kai"))
    with pytest.raises(InputError) as info:
        resolve_run(path, project)
    assert [(p.rule, p.message, p.hint, p.line) for p in info.value.problems] == [
        (
            "R47",
            "profile h200-else-a100 lists gpu classes h200-141gb, a100-80gb, but cluster lab-kai's scheduler "
            "(kai) cannot choose among them: KAI places a pod by its node selector, one class",
            "give one gpu_class (policy.gpu_class: h200-141gb), or run it on a Kueue cluster",
            line_of(path, "profile"),
        )
    ]


def test_r47_render_cli_refuses_a_list_against_the_queues_order_with_exit_2(project: Path, run: Run) -> None:
    doc = run_doc("h200-train", policy={"gpu_class": ["a100-80gb", "h200-141gb"]})
    path = write_yaml(project.parent / "runs" / "cli-reversed.yaml", doc)
    result = run("render", path, "-c", project)
    assert result.exit_code == 2
    assert result.stdout == ""
    line = line_of(path, "gpu_class")
    assert f"cli-reversed.yaml:{line}:" in result.stderr.splitlines()[0]
    assert "[R47]" in result.stderr and "hint: list them as h200-141gb, a100-80gb" in result.stderr


def test_r47_render_cli_writes_no_gpu_class_selector(project: Path, run: Run) -> None:
    path = write_yaml(project.parent / "runs" / "cli-render.yaml", run_doc("h200-else-a100", 2))
    result = run("render", path, "-c", project)
    assert result.exit_code == 0, result.output
    (job,) = objects_of(result.stdout)
    pod = job["spec"]["template"]["spec"]
    assert "nodeSelector" not in pod and GPU_CLASS not in job["metadata"]["labels"]
    assert pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] == {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": GPU_CLASS, "operator": "In", "values": LIST}]}]
    }

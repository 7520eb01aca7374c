"""What render refuses (exit 2): a stale catalog and a not-ready profile (R32), platform
identifiers as gpu-class (R3), a namespace that is not a tenant, and runs Kueue could never admit."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from taugen.core.errors import Problem
from taugen.engines.runs.render import render
from taugen.engines.runs.resolution import resolve_run
from tests.support.helpers import add_profile, write_yaml
from tests.support.runs import PROJECT, RENDER_CASES, build_lab, context_of, run_doc
from tests.support.unit import problems_of

REPO = Path(__file__).resolve().parents[2]
RUN = RENDER_CASES / "gpu-same-network-domain-torchrun.yaml"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_lab(tmp_path_factory.mktemp("lab"))


def _only(problems: list[Problem]) -> Problem:
    assert len(problems) == 1, problems
    return problems[0]


def test_stale_catalog_is_refused(tmp_path: Path) -> None:
    """R32: a profile changed since the build makes the catalog stale; nothing is rendered."""
    project = build_lab(tmp_path)
    add_profile(project)
    problem = _only(problems_of(lambda: resolve_run(RUN, project)))
    assert (problem.rule, problem.path.name) == ("R32", "profile-catalog.yaml")
    assert problem.message.startswith(
        "the profile catalog of cluster lab is stale: it was resolved from inputs sha256:"
    )
    assert "run `taugen build`" in problem.hint


def test_changed_profile_makes_the_catalog_stale(tmp_path: Path) -> None:
    project = build_lab(tmp_path)
    profile = tmp_path / "profiles" / "h200-train.yaml"
    profile.write_text(profile.read_text().replace("same-network-domain", "same-site"))
    assert _only(problems_of(lambda: resolve_run(RUN, project))).rule == "R32"


def test_unbuilt_cluster_is_refused(tmp_path: Path) -> None:
    shutil.copytree(PROJECT, tmp_path, dirs_exist_ok=True)  # no build: no out/
    problem = _only(problems_of(lambda: resolve_run(RUN, tmp_path / "taugen.yaml")))
    assert (problem.rule, problem.message, problem.hint) == (
        "R32",
        "no profile catalog: the cluster is not built",
        "run `taugen build`: it writes the catalog",
    )


def test_not_ready_profile_is_refused(project: Path) -> None:
    """R32: h100-any is `ready: false` in the catalog (no h100 node in the cluster)."""
    context = context_of(project, run_doc("h100-any"))
    problem = _only(problems_of(lambda: render(context)))
    assert (problem.rule, problem.line) == ("R32", 6)
    assert (
        problem.message
        == "profile h100-any is not ready in cluster lab: gpu-class h100-80gb has no nodes in cluster lab"
    )


def test_overridden_gpu_class_without_nodes_is_not_ready(project: Path) -> None:
    """A class a rule gives (the built-in H100 size's) but no node has: pending, not a typo."""
    context = context_of(project, run_doc("h200-any", policy={"gpu_class": "h100-80gb"}))
    assert (
        context.not_ready == "gpu-class h100-80gb has no nodes in cluster lab (policy.gpu_class of the run)"
    )
    assert _only(problems_of(lambda: render(context))).rule == "R32"


@pytest.mark.parametrize(
    ("value", "hint"),
    [
        ("h200-141g", "did you mean 'h200-141gb'?"),
        ("gb200-168gb", "did you mean 'gb200-186gb'?"),  # the project's own rule's class
        (
            "b200-192gb",
            "the rules give a100-40gb, a100-80gb, gb200-186gb, h100-80gb, h200-141gb; "
            "or add a rule that gives b200-192gb",
        ),
    ],
)
def test_overridden_gpu_class_no_rule_gives_is_refused_with_a_guess(
    project: Path, value: str, hint: str
) -> None:
    """Issue 21: a class that no rule (built-in or the project's) gives is a typo: exit 2 at
    policy.gpu_class, with the class a near miss meant (render, preflight and simulate alike)."""
    doc = run_doc("h200-any", policy={"gpu_class": value})
    problem = _only(problems_of(lambda: context_of(project, doc)))
    assert problem.render(project.parent) == (
        f"runs/run.yaml:18:14: error: no rule of cluster lab gives gpu-class {value!r}: "
        f"no node can have it [run]\n  hint: {hint}"
    )


@pytest.mark.parametrize(
    ("value", "message", "hint"),
    [
        (
            "nd-h200-v5",
            "'nd-h200-v5' is a gpu-series, a platform identifier, not a gpu-class",
            "series nd-h200-v5 maps to gpu-class 'h200-141gb'; use that",
        ),
        (
            "nd-gb200-v6",  # a series the project's own rules define
            "'nd-gb200-v6' is a gpu-series, a platform identifier, not a gpu-class",
            "series nd-gb200-v6 maps to gpu-class 'gb200-186gb'; use that",
        ),
        (
            "taugrid-h200-141gb",
            "'taugrid-h200-141gb' is a platform identifier (taugrid-…), not a gpu-class",
            "name the hardware only, e.g. 'h200-141gb'",
        ),
    ],
)
def test_platform_identifier_as_gpu_class_is_refused(
    project: Path, value: str, message: str, hint: str
) -> None:
    """R3: refused with the class the identifier maps to."""
    doc = run_doc("h200-train", policy={"gpu_class": value})
    problem = _only(problems_of(lambda: context_of(project, doc)))
    assert (problem.rule, problem.line, problem.message, problem.hint) == ("R3", 18, message, hint)


def test_namespace_that_is_not_a_tenant_is_refused(project: Path) -> None:
    problem = _only(problems_of(lambda: context_of(project, run_doc("h200-train", namespace="team-z"))))
    assert (problem.rule, problem.line) == ("§7", 5)
    assert problem.message == (
        "namespace team-z is not a tenant of cluster lab: it has no LocalQueue there and the "
        "ClusterQueue's namespaceSelector would never admit it"
    )
    assert problem.hint.startswith("use a tenant namespace (team-a, team-b)")


def test_run_must_name_a_cluster_when_the_project_has_several(tmp_path: Path) -> None:
    """The example project has six clusters; this fails before anything is read from out/."""
    write_yaml(tmp_path / "run.yaml", run_doc("h200-training", namespace="team-llm"))
    problem = _only(problems_of(lambda: resolve_run(tmp_path / "run.yaml", REPO / "taugen.yaml")))
    assert (problem.rule, problem.message, problem.hint) == (
        "cluster",  # issue 18: one picker, one rule id
        "the project has 6 clusters",
        "add `cluster:` with one of eastus-prod, westus3-dev, westus2-dev, fleet-hub, northeurope-kai, "
        "uswest2-eks",
    )


def test_unknown_cluster_and_profile(project: Path) -> None:
    problem = _only(problems_of(lambda: context_of(project, run_doc("h200-train", cluster="prod"))))
    assert (problem.rule, problem.message, problem.hint) == (
        "cluster",
        "cluster 'prod': the project has no such cluster",
        "choose one of: lab",
    )
    problem = _only(problems_of(lambda: context_of(project, run_doc("h200-trian"))))
    assert (problem.rule, problem.message, problem.hint) == (
        "R30",
        "profile 'h200-trian' is not in the catalog of cluster lab",
        "did you mean 'h200-train'?",
    )


@pytest.mark.parametrize(
    ("doc", "rule", "message"),
    [
        (
            run_doc("a100-host", 2, "torchrun"),
            "§7",
            "multi-node torchrun (2 ranks) cannot be same-host: each rank takes its node's only "
            "tau.azure.com/torchrun-host-slot",
        ),
        (
            run_doc("cpu-batch"),
            "§7",
            "a CPU-only run requests 8 nvidia.com/gpu: the CPU flavor has no GPU quota",
        ),
        (
            run_doc("h200-train", resources={"cpu": "4"}),
            "§7",
            "the run is for gpu-class h200-141gb but requests no nvidia.com/gpu",
        ),
        (
            run_doc("cpu-batch", resources={"cpu": "4"}, policy={"topology": "same-site"}),
            "R23",
            "a CPU-only run cannot be placed same-site: taugrid-default-cpu is not topology-aware",
        ),
    ],
    ids=[
        "same-host-multi-node-torchrun",
        "cpu-run-with-gpus",
        "gpu-run-without-gpus",
        "cpu-run-with-topology",
    ],
)
def test_runs_kueue_could_never_admit_are_refused(
    project: Path, doc: dict[str, Any], rule: str, message: str
) -> None:
    problem = _only(problems_of(lambda: context_of(project, doc)))
    assert (problem.rule, problem.message) == (rule, message)


@pytest.mark.parametrize(
    ("fields", "line", "col", "rule", "message"),
    [
        ({"workers": 0}, 7, 10, "run", "workers: Input should be greater than or equal to 1"),
        ({"workers": "2"}, 7, 10, "run", "workers: Input should be a valid integer"),
        ({"launcher": "mpirun"}, 12, 11, "run", "launcher: Input should be 'torchrun' or 'none'"),
        ({"gpus": 8}, 17, 1, "run", "gpus: unknown key"),
        (
            {"resources": {"nvidia.com/gpu": "0.5"}},
            9,
            19,
            "run",
            "nvidia.com/gpu must be a whole number, not 500m",
        ),
        ({"resources": {"cpu": "-1"}}, 9, 8, "run", "cpu is negative (-1)"),
        (
            {"resources": {"nvidia.com/gpu": 8, "tau.azure.com/torchrun-host-slot": 1}},
            10,
            3,
            "§7",
            "tau.azure.com/torchrun-host-slot is not requested by hand",
        ),
        (
            {"name": "n" * 62, "workers": 10},
            4,
            9,
            "run",
            f"the last rank's hostname '{'n' * 62}-9' is 64 characters; at most 63 are allowed",
        ),
    ],
    ids=[
        "workers-0",
        "workers-string",
        "launcher",
        "unknown-key",
        "fractional-gpu",
        "negative",
        "slot",
        "long-name",
    ],
)
def test_invalid_run_files(
    project: Path, fields: dict[str, Any], line: int, col: int, rule: str, message: str
) -> None:
    problem = _only(problems_of(lambda: context_of(project, run_doc("h200-train", **fields))))
    assert (problem.line, problem.col, problem.rule, problem.message) == (line, col, rule, message)
    assert problem.hint

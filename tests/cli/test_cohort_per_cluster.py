"""Issue 34 (1): a Cohort is per cluster (SPEC §10, T1/T2). Two clusters with guaranteed tenants
and different GPU classes each have their own Cohort `taugrid`: build, validate and
build --check succeed; a queue whose shape differs within one cluster is still refused."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, write_yaml

H100 = "Standard_ND96isr_H100_v5"


def two_clusters(root: Path) -> Path:
    """c1: 16 H200 (tenants team-a, team-b); c2: 16 H100 (tenants team-x, team-y)."""
    write_yaml(root / "c1.yaml", inventory([gpu_node(f"a-{i}") for i in range(2)], name="c1"))
    write_yaml(root / "c2.yaml", inventory([gpu_node(f"b-{i}", vm_size=H100) for i in range(2)], name="c2"))
    project = {
        "apiVersion": "taugen.tau.azure.com/v1alpha1",
        "kind": "Project",
        "clusters": [
            {
                "name": "c1",
                "inventory": "c1.yaml",
                "tenants": [
                    {"namespace": "team-a", "guaranteed": {"h200-141gb": 8}},
                    {"namespace": "team-b"},
                ],
            },
            {
                "name": "c2",
                "inventory": "c2.yaml",
                "tenants": [
                    {"namespace": "team-x", "guaranteed": {"h100-80gb": "50%"}},
                    {"namespace": "team-y"},
                ],
            },
        ],
    }
    return write_yaml(root / "taugen.yaml", project)


def test_two_clusters_of_different_classes_build_validate_and_check(tmp_path: Path, run: Run) -> None:
    project = two_clusters(tmp_path)
    result = run("build", "-c", project)
    assert result.exit_code == 0, result.output
    assert run("validate", "-c", project).exit_code == 0
    assert run("validate", tmp_path / "out").exit_code == 0
    check = run("build", "-c", project, "--check")
    assert check.exit_code == 0, check.output
    for cluster, flavor in (("c1", "taugrid-h200-141gb"), ("c2", "taugrid-h100-80gb")):
        docs = list(yaml.safe_load_all((tmp_path / "out" / cluster / "clusterqueue.yaml").read_text()))
        assert {d["spec"]["cohortName"] for d in docs} == {"taugrid"}
        assert {f["name"] for d in docs for f in d["spec"]["resourceGroups"][0]["flavors"]} == {
            "taugrid-default-cpu",
            flavor,
        }


def test_a_queue_of_another_shape_in_one_cluster_is_refused_at_its_position(tmp_path: Path, run: Run) -> None:
    project = two_clusters(tmp_path)
    assert run("build", "-c", project).exit_code == 0
    path = tmp_path / "out" / "c2" / "clusterqueue.yaml"
    docs = list(yaml.safe_load_all(path.read_text()))
    team_x = next(d for d in docs if d["metadata"]["name"] == "taugrid-team-x")
    del team_x["spec"]["resourceGroups"][0]["flavors"][1]  # no H100 flavor
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    result = run("validate", tmp_path / "out")
    assert result.exit_code == 1, result.output
    findings = [line for line in result.stdout.splitlines() if "(cohort-shape)" in line]
    assert len(findings) == 1, result.stdout
    lines = path.read_text().splitlines()
    at = findings[0].split(": ")[0]  # out/c2/clusterqueue.yaml:LINE:COL
    file, line, _ = at.rsplit(":", 2)
    assert file.endswith("c2/clusterqueue.yaml")
    assert lines[int(line) - 2 : int(line)] == ["  resourceGroups:", "  - coveredResources:"]
    document = "\n".join(lines[: int(line)]).rsplit("\n---", 1)[-1]  # the document the position is in
    assert "name: taugrid-team-x" in document
    assert "ClusterQueue/taugrid-team-x" in findings[0]
    assert "differ from ClusterQueue taugrid's in cohort taugrid" in findings[0]

"""SPEC §3 limits from the upstream CRDs, checked before writing."""

from __future__ import annotations

from pathlib import Path

from taugen.backends.kueue import KueueBackend
from taugen.compile.quota import ClassQuota
from tests.helpers import gpu_node, inventory, rules, snapshot
from tests.unit._support import (
    line_of,
    objects,
    problems_of,
    resolve_project,
    rules_of,
    run_build,
    write_lock,
    write_project,
)


def _classes_project(root: Path, count: int) -> Path:
    """`count` GPU classes, one node and one rule each."""
    entries = [([f"Standard_G{i:02d}"], {"tau.azure.com/gpu-class": f"g{i:02d}-80gb"}) for i in range(count)]
    nodes = [gpu_node(f"g-{i:02d}", vm_size=f"Standard_G{i:02d}") for i in range(count)]
    return write_project(root, inventory(nodes), rules(*entries))


def test_64_flavors_including_cpu_is_the_limit(tmp_path: Path) -> None:
    """§3: at most 64 flavors in the group, the CPU flavor included: 63 GPU classes compile."""
    cluster = resolve_project(write_project(tmp_path))
    quotas = [ClassQuota(f"g{i:02d}-80gb", 8, 8, 1, 1) for i in range(63)]
    manifests = KueueBackend().compile(cluster, quotas)
    (queue,) = [m.obj for m in manifests if m.kind == "ClusterQueue"]
    flavors = queue["spec"]["resourceGroups"][0]["flavors"]
    assert [f["name"] for f in flavors] == ["taugrid-default-cpu"] + [
        f"taugrid-g{i:02d}-80gb" for i in range(63)
    ]
    gpu_flavors = [m.obj for m in manifests if m.kind == "ResourceFlavor" and "nodeLabels" in m.obj["spec"]]
    assert len(gpu_flavors) == 63
    assert all(len(f["spec"]["nodeLabels"]) <= 8 and len(f["spec"]["nodeTaints"]) <= 8 for f in gpu_flavors)
    over = [*quotas, ClassQuota("zz-80gb", 8, 8, 1, 1)]
    problems = problems_of(lambda: KueueBackend().compile(cluster, over))
    assert rules_of(problems) == ["limits"]


def test_65_flavors_is_an_error_naming_the_limit(tmp_path: Path) -> None:
    """§3: 64 GPU classes + the CPU flavor exceed Kueue's 64; the error says which limit."""
    project = _classes_project(tmp_path, 64)
    problems = problems_of(lambda: run_build(project))
    assert rules_of(problems) == ["limits"]
    assert "64" in problems[0].message and "flavor" in problems[0].message
    assert not (tmp_path / "out").exists() and not (tmp_path / "taugen.lock").exists()


def test_vanished_classes_kept_by_the_lock_count_towards_the_limit(tmp_path: Path) -> None:
    """§3 + R26: a flavor kept for a vanished class is still a flavor in the group."""
    project = _classes_project(tmp_path, 63)
    write_lock(tmp_path, {"zz-gone": 8})
    before = snapshot(tmp_path)
    assert rules_of(problems_of(lambda: run_build(project))) == ["limits"]
    assert snapshot(tmp_path) == before


def test_local_queue_name_over_63_is_an_error(tmp_path: Path) -> None:
    """§3: LocalQueue names are at most 63 characters."""
    project = write_project(tmp_path)
    text = project.read_text().replace(
        "- namespace: team-a", f"- namespace: team-a\n    localQueue: {'q' * 64}"
    )
    project.write_text(text)
    problems = problems_of(lambda: run_build(project))
    assert [(p.path.name, p.line) for p in problems] == [("taugen.yaml", line_of(project, "localQueue:"))]
    assert "63" in problems[0].message
    assert not (tmp_path / "out").exists()


def test_local_queue_name_of_63_builds(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    project.write_text(
        project.read_text().replace("- namespace: team-a", f"- namespace: team-a\n    localQueue: {'q' * 63}")
    )
    run_build(project)
    assert f"LocalQueue/team-a/{'q' * 63}" in objects(tmp_path)


def test_cluster_queue_name_over_253_is_an_error(tmp_path: Path) -> None:
    """§3: object names are at most 253 characters."""
    project = write_project(tmp_path, clusterQueue="c" * 254)
    problems = problems_of(lambda: run_build(project))
    assert [p.path.name for p in problems] == ["taugen.yaml"]
    assert "253" in problems[0].message


def test_gpu_class_longer_than_a_label_value_is_an_error(tmp_path: Path) -> None:
    """R15/§3: the class is a node label value (<= 63), so its flavor name stays within limits."""
    project = write_project(
        tmp_path, rules_doc=rules((["Standard_Q"], {"tau.azure.com/gpu-class": "g" * 64}))
    )
    problems = problems_of(lambda: run_build(project))
    assert [(p.path.name, p.rule) for p in problems] == [("rules.yaml", "R3")]
    assert "63" in problems[0].message


def test_gpu_class_of_63_characters_builds(tmp_path: Path) -> None:
    gpu_class = "g" * 63
    project = write_project(
        tmp_path,
        inventory([gpu_node("q-0", vm_size="Standard_Q")]),
        rules((["Standard_Q"], {"tau.azure.com/gpu-class": gpu_class})),
    )
    run_build(project)
    flavor = objects(tmp_path)[f"ResourceFlavor/taugrid-{gpu_class}"]
    assert flavor["spec"]["nodeLabels"] == {"tau.azure.com/gpu-class": gpu_class}

"""SPEC §3 limits from the upstream CRDs, checked before writing; and issue 7's limits on the
input itself (size, nesting, aliases), what taugen accepts at the edges, and the refusals that
the case corpus cannot hold (a 200 MB file, an unreadable file, a symbolic link)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from benchmarks.generate import generate
from taugen.compile.quota import ClassQuota
from taugen.core.errors import InputError, Problem
from taugen.load import limits
from taugen.load.document import load_documents, parse_documents
from taugen.schedulers.kueue import Kueue
from taugen.write.journal import read_files
from tests.support.helpers import gpu_node, inventory, rules, snapshot
from tests.support.unit import (
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
    manifests = Kueue().compile(cluster, quotas)
    (queue,) = [m.obj for m in manifests if m.kind == "ClusterQueue"]
    flavors = queue["spec"]["resourceGroups"][0]["flavors"]
    assert [f["name"] for f in flavors] == ["taugrid-default-cpu"] + [
        f"taugrid-g{i:02d}-80gb" for i in range(63)
    ]
    gpu_flavors = [m.obj for m in manifests if m.kind == "ResourceFlavor" and "nodeLabels" in m.obj["spec"]]
    assert len(gpu_flavors) == 63
    assert all(len(f["spec"]["nodeLabels"]) <= 8 and len(f["spec"]["nodeTaints"]) <= 8 for f in gpu_flavors)
    over = [*quotas, ClassQuota("zz-80gb", 8, 8, 1, 1)]
    problems = problems_of(lambda: Kueue().compile(cluster, over))
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


# Issue 7: the input's own limits.


def _refused(path: Path, text: str) -> Problem:
    path.write_text(text)
    (problem,) = problems_of(lambda: load_documents(path))
    return problem


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth  # `depth` lists, one inside the other


def _block(depth: int) -> str:
    return "".join("  " * i + f"k{i}:\n" for i in range(depth)) + "  " * depth + "v\n"


@pytest.mark.parametrize("form", [_nested, _block], ids=["flow", "block"])
def test_depth_64_loads_and_65_is_refused_where_it_starts(tmp_path: Path, form: Any) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text(form(limits.MAX_DEPTH))
    assert len(load_documents(path)) == 1
    problem = _refused(path, form(limits.MAX_DEPTH + 1))
    line, col = (1, 65) if form is _nested else (65, 129)
    assert (problem.line, problem.col, problem.rule) == (line, col, "yaml")
    assert "deeper than 64" in problem.message


def test_a_million_brackets_are_refused_without_parsing_them(tmp_path: Path) -> None:
    """Parse time grows with the square of the depth: the scan stops at the 65th bracket."""
    problem = _refused(tmp_path / "bomb.yaml", _nested(1_000_000))
    assert (problem.line, problem.col) == (1, 65)


def _aliases(count: int) -> str:
    return "base: &b [1, 2]\nuses:\n" + "  - *b\n" * count


def test_1000_aliases_load_and_1001_are_refused_at_the_last(tmp_path: Path) -> None:
    path = tmp_path / "aliases.yaml"
    path.write_text(_aliases(limits.MAX_ALIASES))
    assert len(load_documents(path)[0].data["uses"]) == 1000
    problem = _refused(path, _aliases(limits.MAX_ALIASES + 1))
    assert (problem.line, problem.col, problem.message) == (1003, 5, "more than 1,000 aliases")


def test_billion_laughs_is_refused_by_what_the_aliases_expand_to(tmp_path: Path) -> None:
    levels = [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]\n" for i in range(1, 10)]
    problem = _refused(tmp_path / "lol.yaml", "l0: &l0 [lol]\n" + "".join(levels))
    assert (problem.line, problem.rule) == (6, "yaml")  # l5: 10^5 nodes, past 100,000
    assert "billion laughs" in problem.message


def test_the_round_trip_loader_refuses_what_the_fast_loader_would(tmp_path: Path) -> None:
    """parse_documents (positions, `taugen diff`'s old trees) never builds a tagged object."""
    path = tmp_path / "x.yaml"
    for text, message in [
        ("a: !!python/object/apply:os.system [true]\n", "tag !!python/object/apply:os.system"),
        (_nested(100), "nesting deeper than 64 levels"),
        ("a: &a [*a]\n", "alias *a refers to a collection that contains it"),
    ]:
        with pytest.raises(InputError) as info:
            parse_documents(path, text)
        assert [p.message.startswith(message) for p in info.value.problems] == [True]


def test_merge_keys_and_a_few_anchors_still_load(tmp_path: Path) -> None:
    path = tmp_path / "merge.yaml"
    path.write_text("base: &b {cpu: '96'}\nnode: {<<: *b, memory: 1Gi}\n")
    assert load_documents(path)[0].data["node"] == {"cpu": "96", "memory": "1Gi"}


def test_an_anchor_defined_twice_is_read_as_yaml_1_2_says_by_every_loader(tmp_path: Path) -> None:
    """An alias refers to the latest anchor of its name. ruamel's round-trip composer warns of
    the second one, and a warning is a crash under `-W error` (pytest here): CI's fuzzing found
    it on a duplicate key, the one problem only the round-trip loader reports."""
    path = tmp_path / "anchors.yaml"
    path.write_text("a: &x 1\nb: &x 2\nc: *x\n")
    expected = {"a": 1, "b": 2, "c": 2}
    assert [d.data for d in load_documents(path)] == [expected]
    assert [d.data for d in parse_documents(path, path.read_text())] == [expected]
    path.write_text("a: &x {cpu: '1'}\na: &x {cpu: '2'}\nc: *x\n")
    duplicate = "found duplicate key \"a\" with value \"{'cpu': '2'}\" (original value: \"{'cpu': '1'}\")"
    assert problems_of(lambda: load_documents(path)) == [
        Problem(path, 2, 1, "yaml", duplicate, "remove one of the duplicate keys")
    ]


def test_a_100000_node_inventory_is_within_every_limit(tmp_path: Path) -> None:
    """The limits leave room for a 100,000-node native inventory (~30 MB)."""
    generated = generate(tmp_path, 100_000, forms=["native"])["native"]
    text = generated.inventory.read_text()
    assert 25_000_000 < len(text) < limits.MAX_BYTES / 4
    limits.check_size(generated.inventory, generated.inventory.stat().st_size)
    assert limits._depth_bound(text) <= limits.MAX_DEPTH  # cleared without the event scan


def test_a_200_mb_file_is_refused_before_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = write_project(tmp_path)
    with (tmp_path / "inventory.yaml").open("r+b") as handle:
        handle.truncate(200 * 1000 * 1000)  # sparse: no disk space used
    read: list[Path] = []
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        read.append(self)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.path.name, problem.line, problem.col, problem.rule) == ("inventory.yaml", 1, 1, "yaml")
    assert problem.message == "the file is 200,000,000 bytes; the limit is 167,772,160 bytes (160 MiB)"
    assert tmp_path / "inventory.yaml" not in read
    assert not (tmp_path / "out").exists()


def test_a_utf8_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    project = write_project(tmp_path / "plain")
    run_build(project)
    marked = write_project(tmp_path / "bom")
    inventory_file = tmp_path / "bom" / "inventory.yaml"
    inventory_file.write_bytes(b"\xef\xbb\xbf" + inventory_file.read_bytes())
    run_build(marked)
    assert read_files(tmp_path / "bom" / "out") == read_files(tmp_path / "plain" / "out")


def test_an_unreadable_inventory_is_reported_where_the_project_names_it(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    inventory_file = tmp_path / "inventory.yaml"
    inventory_file.chmod(0)
    try:
        if os.access(inventory_file, os.R_OK):  # root reads it anyway
            pytest.skip("running as a user who can read a file with mode 000")
        (problem,) = problems_of(lambda: run_build(project))
    finally:
        inventory_file.chmod(0o644)
    assert (problem.path.name, problem.line, problem.col, problem.rule) == ("taugen.yaml", 5, 16, "io")
    assert problem.message.endswith("inventory.yaml: cannot read: Permission denied")


def test_an_output_root_that_is_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    """Argo CD syncs what is in Git: a link would send the tree (and its removals) elsewhere."""
    project = write_project(tmp_path / "project")
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "c1").mkdir(parents=True)
    (elsewhere / "c1" / "keep.yaml").write_text("kind: ConfigMap\n")
    (tmp_path / "project" / "out").symlink_to(elsewhere)
    before = snapshot(tmp_path)
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.path.name, problem.rule) == ("taugen.yaml", "output")
    assert f"is a symbolic link (to {elsewhere})" in problem.message
    assert snapshot(tmp_path) == before


def test_an_output_root_given_on_the_command_line_may_not_hold_the_project(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    problems = problems_of(lambda: run_build(project, out=tmp_path))
    named = [p.message.split("contains the input ")[1].split(": a build")[0] for p in problems]
    assert {p.rule for p in problems} == {"output"}
    assert {Path(n).name for n in named} >= {"inventory.yaml", "taugen.yaml"}


def test_the_limits_are_what_the_security_docs_say() -> None:
    readme = (Path(__file__).resolve().parents[2] / "docs" / "security.md").read_text()
    section = readme.split("## Security", 1)[1].split("\n## ", 1)[0]
    for number in ("160 MiB", "64 levels", "1,000 aliases", "100,000 nodes"):
        assert number in section, number


def test_an_output_root_that_is_an_input_file_is_refused(tmp_path: Path) -> None:
    """(Not in the case corpus: the corpus seeds out/<cluster>/ folders, and this root is a file.)"""
    project = write_project(tmp_path)
    project.write_text(project.read_text().replace("clusters:", "output: inventory.yaml\nclusters:"))
    before = snapshot(tmp_path)
    (problem,) = problems_of(lambda: run_build(project))
    assert (problem.path.name, problem.line, problem.col, problem.rule) == ("taugen.yaml", 3, 9, "output")
    assert problem.message.endswith("inventory.yaml is a file, not a folder")
    assert snapshot(tmp_path) == before

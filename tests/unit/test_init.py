"""`taugen init` (issue 8): every file it writes, what it must hold, and that it never overwrites."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from taugen import __version__
from taugen.commands.init import InitRefused, init
from taugen.commands.init.files import TAUGEN_GIT
from taugen.core.choices import DEFAULT_REPO_URL
from taugen.models.schemas import schema_files
from taugen.validate.schemas import SchemaStore

REPO = Path(__file__).resolve().parents[2]
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$", re.MULTILINE)
CLUSTER = "eastus-prod"
URL = "https://git.example.com/acme/queues.git"

WRITTEN = [
    "taugen.yaml",
    f"inventory/{CLUSTER}.yaml",
    "values/tau-core-controller.yaml",
    ".pre-commit-config.yaml",
    ".github/workflows/taugen.yaml",
    ".gitlab-ci.yml",
    "argocd/taugen.yaml",
    "argocd/argocd-cm-health.yaml",
    f"flux/{CLUSTER}.yaml",
    *(f"schemas/{name}" for name in sorted(schema_files())),
]
# Input kinds: the file's modeline names taugen's schema, and the file validates against it.
INPUTS = {
    "taugen.yaml": "project.schema.json",
    f"inventory/{CLUSTER}.yaml": "clusterinventory.schema.json",
    "values/tau-core-controller.yaml": "nodelabelrulesvalues.schema.json",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("scaffold") / "config"
    assert init(target, CLUSTER, URL) == WRITTEN
    return target


def _doc(repo: Path, rel: str) -> Any:
    (doc,) = _docs(repo, rel)
    return doc


def _docs(repo: Path, rel: str) -> list[Any]:
    return [d for d in yaml.safe_load_all((repo / rel).read_text()) if d is not None]


def test_init_writes_exactly_these_files(repo: Path) -> None:
    on_disk = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file())
    assert on_disk == sorted(WRITTEN)


def test_init_is_deterministic(repo: Path, tmp_path: Path) -> None:
    init(tmp_path, CLUSTER, URL)
    assert {rel: (tmp_path / rel).read_bytes() for rel in WRITTEN} == {
        rel: (repo / rel).read_bytes() for rel in WRITTEN
    }


def test_schemas_are_taugens(repo: Path) -> None:
    assert {name: (repo / "schemas" / name).read_bytes() for name in schema_files()} == schema_files()


@pytest.mark.parametrize("rel", [r for r in WRITTEN if r.endswith((".yaml", ".yml"))])
def test_every_yaml_parses_and_names_its_schema(repo: Path, rel: str) -> None:
    text = (repo / rel).read_text()
    assert len(MODELINE.findall(text)) == 1, f"{rel} has no (or several) yaml-language-server lines"
    assert text.startswith("# yaml-language-server: $schema=")
    assert _docs(repo, rel)  # one document (the Flux file: the core and the shards)
    assert "__" not in text.replace("__init__", ""), "an unfilled placeholder"


@pytest.mark.parametrize(("rel", "schema"), sorted(INPUTS.items()))
def test_input_kinds_validate_against_the_schema_they_name(repo: Path, rel: str, schema: str) -> None:
    (named,) = MODELINE.findall((repo / rel).read_text())
    path = (repo / rel).parent / named
    assert path.resolve() == (repo / "schemas" / schema).resolve()
    validator = Draft202012Validator(json.loads(path.read_text()))
    assert [e.message for e in validator.iter_errors(_doc(repo, rel))] == []


def test_the_project_names_the_inventory_rules_and_tenants(repo: Path) -> None:
    (cluster,) = _doc(repo, "taugen.yaml")["clusters"]
    assert cluster["name"] == CLUSTER
    assert cluster["inventory"] == f"inventory/{CLUSTER}.yaml"
    assert cluster["rules"] == ["values/tau-core-controller.yaml"]
    assert cluster["nodeLabels"] == "node"
    assert [t["namespace"] for t in cluster["tenants"]] == ["team-a", "team-b"]


def test_the_inventory_says_how_to_produce_one_from_kubectl(repo: Path) -> None:
    text = (repo / f"inventory/{CLUSTER}.yaml").read_text()
    assert f"kubectl --context {CLUSTER} get nodes -o yaml > inventory/{CLUSTER}.yaml" in text


def test_the_rules_are_in_the_helm_values_shape(repo: Path) -> None:
    values = _doc(repo, "values/tau-core-controller.yaml")
    (rule,) = values["tau-core-controller"]["tauCluster"]["extraNodeLabelRules"]
    assert rule["labels"]["tau.azure.com/gpu-class"] == "h200-141gb"


# --- GitOps entry points: they sync what `taugen build` writes into out/_argocd and out/_flux ---


def test_the_project_has_a_gitops_block_for_both_tools(repo: Path) -> None:
    gitops = _doc(repo, "taugen.yaml")["gitops"]
    assert gitops == {
        "argocd": {"repoURL": URL, "revision": "HEAD"},
        "flux": {
            "sourceRef": {"kind": "GitRepository", "name": "flux-system"},
            "dependsOn": [{"name": "kueue"}],
            "hub": False,
        },
    }


def test_the_argocd_entry_syncs_the_generated_applicationsets_into_argocd(repo: Path) -> None:
    """G6: one Application, in-cluster, over out/_argocd (the build lists the clusters there)."""
    app = _doc(repo, "argocd/taugen.yaml")
    assert (app["apiVersion"], app["kind"], app["metadata"]) == (
        "argoproj.io/v1alpha1",
        "Application",
        {"name": "taugen", "namespace": "argocd"},
    )
    spec = app["spec"]
    assert spec["source"] == {"repoURL": URL, "targetRevision": "HEAD", "path": "out/_argocd"}
    assert spec["destination"] == {"server": "https://kubernetes.default.svc", "namespace": "argocd"}
    assert spec["syncPolicy"] == {
        "automated": {"prune": True, "selfHeal": True},
        "syncOptions": ["ServerSideApply=true"],
        "retry": {"limit": 5, "backoff": {"duration": "10s", "factor": 2, "maxDuration": "5m"}},
    }


def test_the_flux_entry_syncs_the_clusters_generated_folder(repo: Path) -> None:
    flux = sorted(p.relative_to(repo).as_posix() for p in (repo / "flux").iterdir())
    assert flux == [f"flux/{CLUSTER}.yaml"]
    ks = _doc(repo, flux[0])
    assert (ks["apiVersion"], ks["kind"], ks["metadata"]) == (
        "kustomize.toolkit.fluxcd.io/v1",
        "Kustomization",
        {"name": "taugen", "namespace": "flux-system"},
    )
    assert ks["spec"] == {
        "interval": "10m",
        "timeout": "5m",
        "sourceRef": {"kind": "GitRepository", "name": "flux-system"},
        "path": f"./out/_flux/{CLUSTER}",
        "prune": True,
        "wait": False,
    }


def test_a_build_of_the_scaffold_writes_what_the_entry_points_sync(tmp_path: Path) -> None:
    """The scaffold builds; its out/_argocd and out/_flux/<cluster> are the G6 folders."""
    from taugen.commands.build import BuildOptions, build

    init(tmp_path, CLUSTER, URL)
    build(BuildOptions(project_file=tmp_path / "taugen.yaml"))
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == ["_argocd", "_flux", CLUSTER]
    argocd = _doc(tmp_path, "argocd/taugen.yaml")["spec"]["source"]["path"]
    assert (out / argocd.removeprefix("out/")).is_dir()
    flux = out / _doc(tmp_path, f"flux/{CLUSTER}.yaml")["spec"]["path"].removeprefix("./out/")
    assert sorted(p.name for p in flux.iterdir()) == ["core.yaml", "kustomization.yaml"]  # no shard yet
    appset = _docs(tmp_path, "out/_argocd/applicationset.yaml")[0]
    assert appset["spec"]["generators"] == [
        {"list": {"elements": [{"cluster": CLUSTER, "name": f"taugen-{CLUSTER}", "path": f"out/{CLUSTER}"}]}}
    ]
    assert appset["spec"]["template"]["spec"]["source"]["repoURL"] == URL


HEALTH = "resource.customizations.health.kueue.x-k8s.io_"


def test_argocd_cm_patch_is_a_valid_configmap_with_the_four_health_checks(repo: Path) -> None:
    cm = _doc(repo, "argocd/argocd-cm-health.yaml")
    assert (cm["apiVersion"], cm["kind"], cm["metadata"]) == (
        "v1",
        "ConfigMap",
        {"name": "argocd-cm", "namespace": "argocd"},
    )
    assert sorted(cm["data"]) == [
        HEALTH + k for k in ("ClusterQueue", "LocalQueue", "ResourceFlavor", "Topology")
    ]
    checker = SchemaStore().lookup("v1", "ConfigMap")
    assert checker is not None
    assert [e.message for e in checker.errors(cm)] == []


# --- CI recipes and pre-commit ------------------------------------------------------------


def _runs(steps: list[dict[str, Any]]) -> list[tuple[str | None, str]]:
    return [(s.get("if"), s["run"]) for s in steps if "run" in s]


def test_github_workflow_uses_the_repositorys_action(repo: Path) -> None:
    """Issue 21: the recipe runs build --check, validate and the PR diff through action.yml."""
    workflow = _doc(repo, ".github/workflows/taugen.yaml")
    triggers = workflow.get("on", workflow.get(True))  # PyYAML reads the key `on` as true
    assert set(triggers) == {"push", "pull_request"}
    assert workflow["permissions"] == {"contents": "read", "pull-requests": "write"}
    (job,) = workflow["jobs"].values()
    assert job["steps"][0] == {"uses": "actions/checkout@v4", "with": {"fetch-depth": 0}}
    assert job["steps"][-1] == {"uses": f"tau-azure/taugen@v{__version__}"}


def test_the_action_checks_validates_and_comments_the_diff() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    runs = [(s.get("if"), s.get("run", s.get("uses"))) for s in action["runs"]["steps"]]
    pr = "github.event_name == 'pull_request' && inputs.comment == 'true'"
    assert runs == [
        (None, 'pip install "$ACTION_PATH"'),  # the action's own checkout: any ref works
        (None, 'taugen build --check ${CONFIG:+-c "$CONFIG"}'),
        (None, 'taugen validate ${CONFIG:+-c "$CONFIG"}'),
        (
            pr,
            'taugen diff "git:origin/$BASE" -o markdown ${CONFIG:+-c "$CONFIG"} > taugen-diff.md\n'
            'taugen diff "git:origin/$BASE" -o text ${CONFIG:+-c "$CONFIG"} > taugen-diff.txt\n',
        ),
        (pr, "actions/upload-artifact@v4"),
        (pr, 'gh pr comment "$PR" --body-file taugen-diff.md --edit-last --create-if-none'),
    ]
    assert action["runs"]["steps"][0]["env"] == {"ACTION_PATH": "${{ github.action_path }}"}
    assert set(action["inputs"]) == {"config", "comment"}


def test_gitlab_ci_checks_validates_and_notes_the_diff(repo: Path) -> None:
    ci = _doc(repo, ".gitlab-ci.yml")
    assert ci["taugen"]["script"] == ["taugen build --check", "taugen validate"]
    diff = ci["taugen-diff"]
    assert diff["rules"] == [{"if": '$CI_PIPELINE_SOURCE == "merge_request_event"'}]
    target = "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
    assert diff["script"][:2] == [
        f'git fetch origin "+refs/heads/{target}:refs/remotes/origin/{target}"',
        f'taugen diff "git:origin/{target}" -o markdown > taugen-diff.md',
    ]
    assert diff["script"][2] == f'taugen diff "git:origin/{target}" -o text > taugen-diff.txt'
    assert "merge_requests/$CI_MERGE_REQUEST_IID/notes" in diff["script"][3]
    assert diff["artifacts"] == {"name": "taugen-diff", "paths": ["taugen-diff.txt"], "when": "always"}
    assert ci["default"]["before_script"] == [f'pip install "taugen @ git+{TAUGEN_GIT}@v{__version__}"']


def test_pre_commit_config_uses_this_repositorys_hooks(repo: Path) -> None:
    config = _doc(repo, ".pre-commit-config.yaml")
    (entry,) = config["repos"]
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert (
        [h["id"] for h in entry["hooks"]]
        == [h["id"] for h in hooks]
        == ["taugen-build-check", "taugen-validate"]
    )
    assert (entry["repo"], entry["rev"]) == (TAUGEN_GIT, f"v{__version__}")


# --- refusals: nothing is overwritten, nothing is written ----------------------------------


def test_init_refuses_to_overwrite_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "taugen.yaml").write_text("mine\n")
    (tmp_path / "argocd").mkdir()
    (tmp_path / "argocd" / "taugen.yaml").write_text("mine too\n")
    with pytest.raises(InitRefused) as info:
        init(tmp_path, CLUSTER)
    assert str(info.value) == (
        f"refusing to overwrite 2 existing file(s) in {tmp_path}: taugen.yaml, argocd/taugen.yaml; "
        "nothing was written"
    )
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "argocd",
        "argocd/taugen.yaml",
        "taugen.yaml",
    ]
    assert (tmp_path / "taugen.yaml").read_text() == "mine\n"


def test_init_refuses_when_a_folder_it_needs_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "argocd").write_text("not a folder\n")
    with pytest.raises(
        InitRefused,
        match=r"2 existing file\(s\) .*: argocd/taugen.yaml, argocd/argocd-cm-health.yaml",
    ):
        init(tmp_path, CLUSTER)
    assert [p.name for p in tmp_path.iterdir()] == ["argocd"]


def test_init_into_a_folder_with_other_files_keeps_them(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("ours\n")
    assert init(tmp_path, CLUSTER) == WRITTEN
    assert (tmp_path / "README.md").read_text() == "ours\n"


def test_init_refuses_a_cluster_name_that_is_not_a_dns_label(tmp_path: Path) -> None:
    with pytest.raises(InitRefused, match=r"--cluster 'East_US' must be lower-case"):
        init(tmp_path / "x", "East_US")
    assert not (tmp_path / "x").exists()


def test_init_defaults(tmp_path: Path) -> None:
    init(tmp_path)
    assert (tmp_path / "inventory" / "my-cluster.yaml").is_file()
    assert DEFAULT_REPO_URL in (tmp_path / "argocd" / "taugen.yaml").read_text()


def test_gitlab_ci_updates_its_own_note_instead_of_adding_one(repo: Path) -> None:
    """Issue 19 (G6): the note holding taugen's marker is found and updated (PUT), else added."""
    import re
    import subprocess
    import sys

    script = _doc(repo, ".gitlab-ci.yml")["taugen-diff"]["script"]
    (finder,) = [line for line in script if line.startswith("NOTE=")]
    code = re.search(r"python3 -I -c '(.+)'\)$", finder)
    assert code is not None, finder
    notes = '[{"id": 7, "body": "lgtm"}, {"id": 9, "body": "<!-- taugen-diff -->\\n### taugen diff"}]'
    for given, found in ((notes, "9"), ('[{"id": 7, "body": "lgtm"}]', "")):
        run = subprocess.run([sys.executable, "-c", code[1]], input=given, capture_output=True, text=True)
        assert (run.returncode, run.stdout.strip()) == (0, found)
    assert 'if [ -n "$NOTE" ]; then METHOD=PUT; URL="$API/$NOTE"; else METHOD=POST; URL="$API"; fi' in script


SCAFFOLDS = [REPO / "action.yml", REPO / ".pre-commit-hooks.yaml"]
# A Python started on a command line: `python3 -c …`, `python -m …` (not setup-python, python:3.12)
PYTHON_RUN = re.compile(r"(?:^|[\s|;&(])python(?:3(?:\.\d+)?)? +(?P<flags>-\S+)", re.MULTILINE)


def test_nothing_taugen_writes_runs_python_that_imports_from_the_checkout(repo: Path) -> None:
    """Issue 32: `python3 -c` puts the working folder first on sys.path, so a json.py committed in
    the pull request ran in the GitLab job, with its API token. Every Python that a scaffold (or
    the Action, or the pre-commit hooks) starts runs isolated (-I)."""
    texts = {rel: (repo / rel).read_text() for rel in WRITTEN if not rel.startswith("schemas/")}
    texts |= {path.name: path.read_text() for path in SCAFFOLDS}
    runs = {rel: [m["flags"] for m in PYTHON_RUN.finditer(text)] for rel, text in texts.items()}
    assert {rel: flags for rel, flags in runs.items() if flags} == {".gitlab-ci.yml": ["-I"]}


def test_the_gitlab_note_finder_imports_nothing_from_the_checkout(repo: Path, tmp_path: Path) -> None:
    import shlex
    import subprocess
    import sys

    script = _doc(repo, ".gitlab-ci.yml")["taugen-diff"]["script"]
    (finder,) = [line for line in script if line.startswith("NOTE=")]
    command = finder.split("| ", 1)[1].removesuffix(")")
    assert command.startswith("python3 ")
    (tmp_path / "json.py").write_text("open('ran', 'w').write('the checkout ran')\n")
    notes = '[{"id": 9, "body": "<!-- taugen-diff -->"}]'
    run = subprocess.run(
        ["bash", "-c", shlex.quote(sys.executable) + command.removeprefix("python3")],
        input=notes,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert (run.returncode, run.stdout.strip(), (tmp_path / "ran").exists()) == (0, "9", False)

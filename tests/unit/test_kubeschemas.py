"""The schemas `validate --kubeconform` writes (kubeschemas.py): names kubeconform finds; a given
CRD's schemas closed but with RE2 patterns as they are; without a CRD, taugen's own schema of the
kind (issue 30: no upstream file ships); the policy kinds standalone."""

from __future__ import annotations

import json
from pathlib import Path

from taugen.validate.crd import load_crds
from taugen.validate.kubeschemas import write_schemas
from taugen.validate.schemas import own_schema_path
from tests.conftest import shared_crds

KINDS = {
    ("kueue.x-k8s.io/v1beta2", "ResourceFlavor"),
    ("scheduling.run.ai/v2", "Queue"),
    ("v1", "Node"),
    ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding"),
    ("example.com/v1", "Unknown"),
}
CORE = ["node-v1.json", "validatingadmissionpolicybinding-admissionregistration-v1.json"]


def test_without_a_crd_each_kind_gets_taugens_own_schema(tmp_path: Path) -> None:
    locations = write_schemas(tmp_path, KINDS, (), "1.34")

    assert locations == [
        f"{tmp_path}/crd/{{{{ .ResourceKind }}}}-{{{{ .Group }}}}-{{{{ .ResourceAPIVersion }}}}.json",
        f"{tmp_path}/core/{{{{ .ResourceKind }}}}{{{{ .KindSuffix }}}}.json",
    ]
    assert sorted(p.name for p in (tmp_path / "core").iterdir()) == CORE
    assert sorted(p.name for p in (tmp_path / "crd").iterdir()) == [
        "queue-scheduling.run.ai-v2.json",
        "resourceflavor-kueue.x-k8s.io-v1beta2.json",
    ]
    own = own_schema_path("kueue.x-k8s.io/v1beta2", "ResourceFlavor")
    assert own is not None
    assert (tmp_path / "crd" / "resourceflavor-kueue.x-k8s.io-v1beta2.json").read_bytes() == own.read_bytes()
    for path in (tmp_path / "core").iterdir():
        assert "$ref" not in path.read_text() and "$id" not in json.loads(path.read_text())


def test_a_given_crd_gives_every_version_of_the_trees_groups(tmp_path: Path) -> None:
    kueue, kai = shared_crds("kueue"), shared_crds("kai")
    write_schemas(tmp_path, KINDS, (kueue, kai, shared_crds("lws")), "1.34")
    crd_files = {p.name for p in (tmp_path / "crd").iterdir()}
    # every Kueue and KAI CRD version (the groups of the tree), nothing of LWS
    assert {
        "resourceflavor-kueue.x-k8s.io-v1beta2.json",
        "clusterqueue-kueue.x-k8s.io-v1beta1.json",
        "queue-scheduling.run.ai-v2.json",
    } <= crd_files
    assert not any("leaderworkerset" in name for name in crd_files)


def test_a_crd_schema_is_closed_with_its_patterns_as_re2_reads_them(tmp_path: Path) -> None:
    kueue = shared_crds("kueue")
    write_schemas(tmp_path, KINDS, (kueue,), "1.34")
    schema = json.loads((tmp_path / "crd" / "resourceflavor-kueue.x-k8s.io-v1beta2.json").read_text())
    upstream = load_crds(kueue)[("kueue.x-k8s.io/v1beta2", "ResourceFlavor")].openapi
    spec = schema["properties"]["spec"]
    assert schema["additionalProperties"] is False and spec["additionalProperties"] is False
    taint = spec["properties"]["nodeTaints"]["items"]
    assert taint["additionalProperties"] is False
    original = upstream["properties"]["spec"]
    assert spec["properties"]["topologyName"]["pattern"] == original["properties"]["topologyName"]["pattern"]
    assert "x-kubernetes-validations" not in json.dumps(schema)

"""The schemas `validate --kubeconform` writes (kubeschemas.py): names kubeconform finds, the
CRDs' schemas closed but with RE2 patterns as they are, the policy kinds standalone."""

from __future__ import annotations

import json
from pathlib import Path

from taugen.validate.celrules import BUNDLED, schemas_of
from taugen.validate.kubeschemas import write_schemas

KINDS = {
    ("kueue.x-k8s.io/v1beta2", "ResourceFlavor"),
    ("scheduling.run.ai/v2", "Queue"),
    ("v1", "Node"),
    ("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding"),
    ("example.com/v1", "Unknown"),
}


def test_one_file_per_version_of_the_trees_groups_and_per_builtin_kind(tmp_path: Path) -> None:
    locations = write_schemas(tmp_path, KINDS, (), "1.34")

    assert locations == [
        f"{tmp_path}/crd/{{{{ .ResourceKind }}}}-{{{{ .Group }}}}-{{{{ .ResourceAPIVersion }}}}.json",
        f"{tmp_path}/core/{{{{ .ResourceKind }}}}{{{{ .KindSuffix }}}}.json",
    ]
    assert sorted(p.name for p in (tmp_path / "core").iterdir()) == [
        "node-v1.json",
        "validatingadmissionpolicybinding-admissionregistration-v1.json",
    ]
    crd_files = {p.name for p in (tmp_path / "crd").iterdir()}
    # every Kueue and KAI CRD version (the groups of the tree), nothing of LWS, NFD or Grove
    assert "resourceflavor-kueue.x-k8s.io-v1beta2.json" in crd_files
    assert "clusterqueue-kueue.x-k8s.io-v1beta1.json" in crd_files
    assert "queue-scheduling.run.ai-v2.json" in crd_files
    assert not any(g in name for name in crd_files for g in ("leaderworkerset", "nfd", "grove"))
    for path in (tmp_path / "core").iterdir():
        assert "$ref" not in path.read_text() and "$id" not in json.loads(path.read_text())


def test_a_crd_schema_is_closed_with_its_patterns_as_re2_reads_them(tmp_path: Path) -> None:
    write_schemas(tmp_path, KINDS, (), "1.34")
    schema = json.loads((tmp_path / "crd" / "resourceflavor-kueue.x-k8s.io-v1beta2.json").read_text())
    upstream = schemas_of(BUNDLED / "kueue" / "kueue.x-k8s.io_resourceflavors.yaml")
    spec = schema["properties"]["spec"]
    assert schema["additionalProperties"] is False and spec["additionalProperties"] is False
    taint = spec["properties"]["nodeTaints"]["items"]
    assert taint["additionalProperties"] is False
    original = upstream[("kueue.x-k8s.io/v1beta2", "ResourceFlavor")]["properties"]["spec"]
    assert spec["properties"]["topologyName"]["pattern"] == original["properties"]["topologyName"]["pattern"]
    assert "x-kubernetes-validations" not in json.dumps(schema)

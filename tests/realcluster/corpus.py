"""A corpus of objects of the kinds taugen writes, valid and invalid, for `taugen validate` against
the real API server (issue 31 item 4). Deterministic: the same list on every run.

- the example's compiled objects of every such kind (valid);
- the objects of taugen's own checks of the upstream CEL rules, each refused and accepted one
  (tests/unit/test_upstream_checks.py);
- for each kind, every mutation of one example object that breaks one constraint of the
  upstream CRD's structural schema at one place (tests/support/crdgen.py: a wrong type, an
  unknown field, a required field dropped, one past a bound, off the enum or pattern);
- names and sizes: a name too long, with an upper-case letter, ending in a newline; labels that
  are no label; an object over the size the API server takes.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from taugen.validate.crd import CrdVersion, object_schema
from tests.conftest import REPO
from tests.support.crdgen import mutations, replaced
from tests.unit.test_upstream_checks import ACCEPTED, REFUSED

Object = dict[str, Any]
# The kinds taugen writes into a cluster's tree (Kueue, KAI, NFD, the priority classes, G3).
KINDS = (
    "ClusterQueue", "LocalQueue", "ResourceFlavor", "Topology", "WorkloadPriorityClass", "Cohort",
    "AdmissionCheck", "MultiKueueConfig", "MultiKueueCluster", "PriorityClass", "NodeFeatureRule",
    "Queue", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
)  # fmt: skip
NAMESPACE = "corpus"  # every namespaced object of the corpus lives here
ROUTED = ((), ("metadata",), ("apiVersion",), ("kind",))  # what routes the request: kept whole
PER_KIND = 40  # schema mutations kept per kind (the first, in the generator's order)


@dataclass(frozen=True)
class Case:
    name: str
    obj: Object


def example_objects() -> list[Object]:
    """The first example object of each kind taugen writes, from the committed trees."""
    found: dict[tuple[str, str], Object] = {}
    for path in sorted((REPO / "out").glob("*/*.yaml")):
        if path.name == "kustomization.yaml" or path.parent.name.startswith("_"):
            continue
        for doc in yaml.safe_load_all(path.read_text()):
            if doc and doc.get("kind") in KINDS:
                found.setdefault((doc["apiVersion"], doc["kind"]), doc)
    return [found[key] for key in sorted(found)]


def _named(obj: Object, name: str) -> Object:
    """The object under a name of its own, in the corpus namespace when namespaced."""
    out = copy.deepcopy(obj)
    meta = out.setdefault("metadata", {})
    meta["name"] = name
    if "namespace" in meta:
        meta["namespace"] = NAMESPACE
    meta.pop("annotations", None)  # Argo CD's: nothing the API server reads
    return out


def corpus(crds: dict[tuple[str, str], CrdVersion]) -> list[Case]:
    cases: list[Case] = []
    examples = example_objects()
    for i, obj in enumerate(examples):
        cases.append(Case(f"example {obj['kind']}", _named(obj, f"c-example-{i}")))
    for i, (name, (obj, _)) in enumerate(sorted(REFUSED.items())):
        cases.append(Case(f"own check refuses: {name}", _named(obj, f"c-refused-{i}")))
    for i, (name, obj) in enumerate(sorted(ACCEPTED.items())):
        cases.append(Case(f"own check accepts: {name}", _named(obj, f"c-accepted-{i}")))
    for i, obj in enumerate(examples):
        crd = crds.get((obj["apiVersion"], obj["kind"]))
        if crd is None:
            continue
        changed = [(p, new) for p, new in mutations(object_schema(crd), obj) if p[:1] not in ROUTED]
        for j, (path, new) in enumerate(changed[:PER_KIND]):
            where = ".".join(map(str, path))
            mutated = _named(replaced(obj, path, new), f"c-{obj['kind'].lower()}-{i}-{j}")
            cases.append(Case(f"{obj['kind']} {where} = {json.dumps(new, default=str)[:40]}", mutated))
    cases += _names_and_sizes(examples)
    return cases


def _names_and_sizes(examples: list[Object]) -> list[Case]:
    flavor = next(o for o in examples if o["kind"] == "ResourceFlavor")
    queue = next(o for o in examples if o["kind"] == "LocalQueue")
    cases = [
        Case("name of 253 characters", _named(flavor, "n" * 253)),
        Case("name of 254 characters", _named(flavor, "n" * 254)),
        Case("name with an upper-case letter", _named(flavor, "Flavor")),
        Case("name ending in a newline", _named(flavor, "flavor\n")),
        Case("name with a dot", _named(flavor, "gpu.flavor")),
        Case("LocalQueue name of 64 characters", _named(queue, "q" * 64)),
        Case("LocalQueue name with a dot", _named(queue, "q.a")),
    ]
    bad_label = _named(flavor, "c-label-key")
    bad_label["metadata"]["labels"] = {"-bad": "x"}
    long_value = _named(flavor, "c-label-value")
    long_value["metadata"]["labels"] = {"ok": "v" * 64}
    big = _named(flavor, "c-too-big")
    big["metadata"]["annotations"] = {"example.com/big": "x" * 300_000}
    return [
        *cases,
        Case("label key starting with a dash", bad_label),
        Case("label value of 64 characters", long_value),
        Case("an object of 300 kB (annotations over 256 kB)", big),
    ]


def write(cases: list[Case], folder: Path) -> list[Path]:
    """One file per case, for `taugen validate` (which reads files)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, case in enumerate(cases):
        path = folder / f"{i:03d}.yaml"
        path.write_text(yaml.safe_dump(case.obj, sort_keys=False))
        paths.append(path)
    return paths

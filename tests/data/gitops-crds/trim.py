"""Trim upstream CRDs to what tests/unit/test_gitops_crds.py needs (run by hand on an upgrade):

    python tests/data/gitops-crds/trim.py UPSTREAM_CRD.yaml > tests/data/gitops-crds/NAME.json

Descriptions and `status` are dropped (a committed object has no status). In the ApplicationSet,
every generator but `list` (the only one taugen writes) becomes an object of any fields: the
matrix and merge generators nest every generator again and are 70% of the schema's bytes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

ANY_OBJECT = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}


def _strip(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if k != "description"}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def trim(crd: dict[str, Any]) -> dict[str, Any]:
    for version in crd["spec"]["versions"]:
        schema = _strip(version["schema"]["openAPIV3Schema"])
        schema["properties"].pop("status", None)
        generators = schema["properties"].get("spec", {}).get("properties", {}).get("generators")
        if crd["spec"]["names"]["kind"] == "ApplicationSet" and generators:
            items = generators["items"]["properties"]
            kept = {k: v if k == "list" else ANY_OBJECT for k, v in items.items()}
            generators["items"]["properties"] = kept
        version["schema"]["openAPIV3Schema"] = schema
    meta = {k: crd["metadata"][k] for k in ("name",)}
    return {"apiVersion": crd["apiVersion"], "kind": crd["kind"], "metadata": meta, "spec": crd["spec"]}


if __name__ == "__main__":
    source = Path(sys.argv[1]).read_text(encoding="utf-8")
    print(json.dumps(trim(yaml.safe_load(source)), indent=1, sort_keys=True))

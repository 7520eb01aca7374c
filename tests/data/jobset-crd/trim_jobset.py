"""Trim the upstream JobSet CRD to what tests/unit/test_jobset.py needs (run by hand on an
upgrade):

    python tests/data/jobset-crd/trim_jobset.py UPSTREAM_CRD.yaml > tests/data/jobset-crd/jobset.json

Descriptions and `status` are dropped (a rendered object has no status). In every pod spec, the
fields taugen never writes (volumes, init and ephemeral containers) become objects of
any fields: they are most of the schema's bytes. Everything taugen renders stays strict.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

ANY = {"x-kubernetes-preserve-unknown-fields": True}
UNWRITTEN = ("volumes", "initContainers", "ephemeralContainers")


def _strip(node: Any) -> Any:
    if isinstance(node, dict):
        kept = {k: _strip(v) for k, v in node.items() if k != "description"}
        props = kept.get("properties", {})
        if "containers" in props and "restartPolicy" in props:  # a PodSpec
            for name in UNWRITTEN:
                if name in props:
                    props[name] = {"type": props[name].get("type", "object"), **ANY}
        return kept
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def trim(crd: dict[str, Any]) -> dict[str, Any]:
    for version in crd["spec"]["versions"]:
        schema = _strip(version["schema"]["openAPIV3Schema"])
        schema["properties"].pop("status", None)
        version["schema"]["openAPIV3Schema"] = schema
        version.pop("additionalPrinterColumns", None)
    meta = {"name": crd["metadata"]["name"]}
    return {"apiVersion": crd["apiVersion"], "kind": crd["kind"], "metadata": meta, "spec": crd["spec"]}


if __name__ == "__main__":
    source = Path(sys.argv[1]).read_text(encoding="utf-8")
    print(json.dumps(trim(yaml.safe_load(source)), indent=1, sort_keys=True))

"""Issue 31 item 6: how `validate --server` reads the API server's refusals (the dry runs themselves
are tested against a real kube-apiserver in tests/realcluster/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.validate.resources import Resource, load_resources
from taugen.validate.server import HINT, _findings, _status, field_path

FLAVOR = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: f
spec:
  tolerations:
    - key: sku
      operator: Exists
      value: gpu
"""


def _flavor(tmp_path: Path) -> Resource:
    path = tmp_path / "flavor.yaml"
    path.write_text(FLAVOR)
    (resource,) = load_resources([path]).resources
    return resource


@pytest.mark.parametrize(
    ("field", "loc"),
    [
        ("spec.tolerations[0].value", ["spec", "tolerations", 0, "value"]),
        ("spec.resourceGroups[1].flavors[12].name", ["spec", "resourceGroups", 1, "flavors", 12, "name"]),
        ("metadata.name", ["metadata", "name"]),
        ("", []),
    ],
)
def test_a_field_path_is_a_loc(field: str, loc: list[str | int]) -> None:
    assert field_path(field) == loc


class _Refused(Exception):
    def __init__(self, body: str | None, status: int = 422, reason: str = "Unprocessable Entity") -> None:
        self.body, self.status, self.reason = body, status, reason


def test_each_cause_is_a_finding_at_its_field(tmp_path: Path) -> None:
    body = (
        '{"kind":"Status","message":"ResourceFlavor.kueue.x-k8s.io \\"f\\" is invalid","details":{"causes":'
        '[{"reason":"FieldValueInvalid","message":"Invalid value: a value must be empty","field":'
        '"spec.tolerations[0].value"}]}}'
    )
    found = list(_findings(_flavor(tmp_path), _status(_Refused(body))))
    assert [
        (f.problem.line, f.problem.col, f.problem.rule, f.problem.message, f.problem.hint) for f in found
    ] == [(9, 14, "server", "spec.tolerations[0].value: Invalid value: a value must be empty", HINT)]


def test_a_refusal_without_causes_is_one_finding_at_the_object(tmp_path: Path) -> None:
    body = '{"kind":"Status","message":"namespaces \\"team-a\\" not found","reason":"NotFound"}'
    (found,) = _findings(_flavor(tmp_path), _status(_Refused(body, 404, "Not Found")))
    assert (found.problem.line, found.problem.col, found.problem.message) == (
        1,
        1,
        'namespaces "team-a" not found',
    )
    (bare,) = _findings(_flavor(tmp_path), _status(_Refused(None, 403, "Forbidden")))
    assert bare.problem.message == "403 Forbidden"

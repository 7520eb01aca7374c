"""`taugen validate` reports an ill-shaped object, never crashes on it: every object of the
differential corpus (tests/realcluster/corpus.py: each mutation that breaks one constraint of an
upstream CRD's schema) is validated and gets a report. Found by the corpus: a map where a name
belongs made four rules across objects raise TypeError (exit 3)."""

from __future__ import annotations

from pathlib import Path

from taugen.validate.engine import validate
from taugen.validate.resources import load_resources
from taugen.validate.schemas import SchemaStore
from tests.conftest import shared_crds
from tests.realcluster.corpus import corpus, write
from tests.support.crd import load_crds


def test_every_object_of_the_corpus_gets_a_report(tmp_path: Path) -> None:
    crds = {k: v for p in ("kueue", "kai", "nfd") for k, v in load_crds(shared_crds(p)).items()}
    cases = corpus(crds)
    paths = write(cases, tmp_path)
    store = SchemaStore()
    invalid = 0
    for path in paths:
        report = validate(load_resources([path]).resources, store, 1)
        assert len(report.results) == 1, path
        invalid += not report.valid
    assert len(cases) >= 200 and invalid >= 100


def test_a_kind_too_long_to_name_a_file_is_a_kind_without_a_schema(tmp_path: Path) -> None:
    """Found by tests/property/test_fuzz_commands.py: a 3,000-character kind made the schema
    lookup ask the disk for a file name over NAME_MAX (OSError, exit 3)."""
    for api_version in ("kueue.x-k8s.io/v1beta2", "v1"):
        path = tmp_path / "long.yaml"
        path.write_text(f"apiVersion: {api_version}\nkind: {'x' * 3000}\nmetadata:\n  name: a\n")
        report = validate(load_resources([path]).resources, SchemaStore(), 1)
        assert [r.status for r in report.results] == ["skipped"], api_version

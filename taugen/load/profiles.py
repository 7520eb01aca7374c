"""Load workload profiles from files and folders (SPEC §1.4)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from taugen.errors import InputError, Problem, ProblemCollector
from taugen.load.document import Document, load_documents
from taugen.load.validate import validate
from taugen.models.profile import WorkloadProfile

RULE = "profile"
BUILTIN_PROFILES = Path(__file__).resolve().parent.parent / "profiles"


@dataclass(frozen=True)
class LoadedProfile:
    profile: WorkloadProfile
    doc: Document


def profile_files(sources: list[Path]) -> list[Path]:
    files: list[Path] = []
    for source in sources:
        if source.is_dir():
            files.extend(sorted(p for p in source.iterdir() if p.suffix in (".yaml", ".yml")))
        else:
            files.append(source)
    return files


def load_profiles(sources: list[Path]) -> list[LoadedProfile]:
    problems = ProblemCollector()
    loaded: dict[str, LoadedProfile] = {}
    for path in profile_files(sources):
        try:
            docs = load_documents(path)
        except InputError as err:
            problems.extend(err.problems)
            continue
        for doc in docs:
            _add(doc, loaded, problems)
    problems.raise_if_any()
    return [loaded[name] for name in sorted(loaded)]


def _add(doc: Document, loaded: dict[str, LoadedProfile], problems: ProblemCollector) -> None:
    try:
        profile = validate(WorkloadProfile, doc, RULE)
    except InputError as err:
        problems.extend(err.problems)
        return
    name = profile.metadata.name
    if name in loaded:
        first = loaded[name].doc
        problems.add(
            Problem(
                doc.path,
                *_line_col(doc),
                RULE,
                f"profile {name!r} is defined twice (also in {first.path.name})",
                "rename one",
            )
        )
        return
    loaded[name] = LoadedProfile(profile, doc)


def _line_col(doc: Document) -> tuple[int, int]:
    pos = doc.at(["metadata", "name"])
    return pos.line, pos.col

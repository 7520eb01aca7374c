"""Load workload profiles from files and folders (SPEC §1.4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from taugen import PACKAGE
from taugen.core.errors import InputError, Problem, ProblemCollector, Rule
from taugen.load.document import Document, load_documents
from taugen.load.validate import validate
from taugen.models.profile import WorkloadProfile

RULE: Rule = "profile"
BUILTIN_PROFILES = PACKAGE / "profiles"


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
    problems.extend(_check_migrations(loaded))
    problems.raise_if_any()
    return [loaded[name] for name in sorted(loaded)]


class ReplacementLoop(ValueError):
    """A chain of `deprecated.replacedBy` that comes back to a profile it passed."""

    def __init__(self, chain: list[str]) -> None:
        self.chain = chain
        super().__init__(" -> ".join(chain))


def replacement_chain(name: str, replaced_by: Mapping[str, str | None]) -> list[str]:
    """[name, its replacement, ..., the first profile not deprecated]; ReplacementLoop on a loop.

    Ends early at a name `replaced_by` does not know (the loader reports that as an error).
    """
    chain = [name]
    while (following := replaced_by.get(chain[-1])) is not None:
        chain.append(following)
        if following in chain[:-1]:
            raise ReplacementLoop(chain)
    return chain


def _check_migrations(loaded: dict[str, LoadedProfile]) -> list[Problem]:
    """Profile migration: a replacement names a profile, and following replacements ends."""
    replaced_by = {
        n: p.profile.deprecated.replacedBy if p.profile.deprecated else None for n, p in loaded.items()
    }
    found = []
    for name, target in sorted(replaced_by.items()):
        if target is None:
            continue
        where = loaded[name].doc.at(["deprecated", "replacedBy"])
        if target not in loaded:
            found.append(
                where.problem(
                    RULE,
                    f"profile {name!r} is replaced by {target!r}, which is not a profile",
                    f"name one of: {', '.join(sorted(loaded))}",
                )
            )
            continue
        try:
            replacement_chain(name, replaced_by)
        except ReplacementLoop as loop:
            found.append(
                where.problem(
                    RULE,
                    f"profile {name!r}: the replacement chain loops ({loop})",
                    "end the chain at a profile that is not deprecated",
                )
            )
    return found


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

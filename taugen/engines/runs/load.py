"""Load a run file (SPEC §7) with positions; every problem of the file is reported together."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from taugen.core.errors import Problem, ProblemCollector, Rule
from taugen.core.names import DNS1123_LABEL_MAX, label_key_error
from taugen.core.quantity import Quantity
from taugen.engines.runs.jobs import job_problems
from taugen.load.document import Document, Loc, load_one
from taugen.load.inventory import GPU
from taugen.load.validate import validate
from taugen.models.run import SLICE_ORDER, Run, Slice, Workload

RULE: Rule = "run"
SLOT = "tau.azure.com/torchrun-host-slot"


@dataclass(frozen=True)
class LoadedRun:
    run: Run
    doc: Document

    @property
    def path(self) -> Path:
        return self.doc.path


def load_run(path: Path) -> LoadedRun:
    doc = load_one(path)
    run = validate(Run, doc, RULE)
    problems = ProblemCollector()
    problems.extend(run_problems(doc, run))
    problems.raise_if_any()
    return LoadedRun(run, doc)


def run_problems(doc: Document, run: Run) -> list[Problem]:
    """What the model cannot say: resource names and amounts, rank hostnames. A run file and
    each run of a WorkloadSet (`simulate`) are checked alike (issue 17 item 9)."""
    found = _resource_problems(doc, run.resources, []) + _layer_problems(doc, run.policy.slice, ["policy"])
    for i, job in enumerate(run.job_list()):
        found += _resource_problems(doc, job.resources or {}, ["jobs", i])
        found += _layer_problems(doc, job.slice, ["jobs", i])
    if run.workload == Workload.JOBSET:
        return found + job_problems(doc, run)
    return found + _name_problems(doc, run)


def _resource_problems(doc: Document, resources: Mapping[str, Quantity], at: Loc) -> list[Problem]:
    found = []
    for name, quantity in resources.items():
        if (wrong := _resource_problem(name, quantity)) is not None:
            rule, message, hint, on_key = wrong
            found.append(doc.at([*at, "resources", name], key=on_key).problem(rule, message, hint))
    return found


def _resource_problem(name: str, quantity: Quantity) -> tuple[Rule, str, str, bool] | None:
    """What is wrong with one request: rule, message, hint and whether the name is at fault.
    Its position is looked up only then: a lookup scans the file's events, and a WorkloadSet
    holds thousands of requests (1,000 runs of the simulate benchmark: 24 s of lookups)."""
    if why := label_key_error(name):
        return RULE, f"resource {name!r}: {why}", "use a resource name such as nvidia.com/gpu", True
    if name == SLOT:
        hint = "remove it: taugen adds one per rank to multi-node torchrun runs"
        return "§7", f"{SLOT} is not requested by hand", hint, True
    if quantity.value < 0:
        return RULE, f"{name} is negative ({quantity})", "request a value >= 0", False
    if name == GPU and not quantity.is_integer():
        return RULE, f"{GPU} must be a whole number, not {quantity}", "count whole GPUs", False
    return None


def _name_problems(doc: Document, run: Run) -> list[Problem]:
    """Rank i's pod hostname is <name>-<i>: it must stay a DNS label (the rendezvous resolves it)."""
    longest = f"{run.metadata.name}-{run.workers - 1}"
    if len(longest) <= DNS1123_LABEL_MAX:
        return []
    room = DNS1123_LABEL_MAX - len(f"-{run.workers - 1}")
    return [
        doc.at(["metadata", "name"]).problem(
            RULE,
            f"the last rank's hostname {longest!r} is {len(longest)} characters; at most 63 are allowed",
            f"shorten the name to at most {room} characters",
        )
    ]


def _layer_problems(doc: Document, found: Slice | None, owner: Loc) -> list[Problem]:
    """Kueue's checks of inner slice layers (v0.19.2: tas_validation.go refuses a size that does
    not divide the parent's; buildSliceSizeAtLevel leaves a layer not below its parent pending).
    `owner`: where the slice is, the run's policy or a JobSet job (K6)."""
    if found is None:
        return []
    problems = []
    parent_level, parent_size = found.level, found.size
    for index, layer in enumerate(found.layers):
        at: Loc = [*owner, "slice", "layers", index]
        below = SLICE_ORDER[SLICE_ORDER.index(parent_level) + 1 :]
        if layer.level not in below:
            hint = f"use a level below {parent_level}: {', '.join(below)}" if below else "remove the layer"
            message = f"slice layer {layer.level} must be at a lower level than {parent_level}"
            problems.append(doc.at([*at, "level"]).problem("S3", message, hint))
        if parent_size % layer.size:
            divisors = [n for n in range(1, parent_size + 1) if parent_size % n == 0]
            listed = f": {', '.join(map(str, divisors))}" if len(divisors) <= 12 else ""
            hint = f"use a size that divides {parent_size}{listed}"
            message = f"slice layer size {layer.size} must evenly divide the parent layer size {parent_size}"
            problems.append(doc.at([*at, "size"]).problem("S3", message, hint))
        parent_level, parent_size = layer.level, layer.size
    return problems

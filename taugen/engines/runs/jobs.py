"""A JobSet run's jobs (K6), checked where the model cannot: each job names a replicatedJob and
its Kueue pod set, so the names are unique, and the pods' names stay DNS-1035 labels (the
JobSet webhook, v0.12.0, refuses a JobSet whose longest pod name would not be one)."""

from __future__ import annotations

from taugen.core.errors import Problem, Rule
from taugen.core.names import DNS1123_LABEL_MAX
from taugen.load.document import Document
from taugen.models.run import Run

RULE: Rule = "K6"
POD_SUFFIX = "-abcde"  # the random suffix the webhook allows for (GenPodName + 5 characters)


def pod_name(run: str, job: str, workers: int) -> str:
    """The JobSet's longest pod name for a job of one replica: <run>-<job>-0-<last index>-xxxxx."""
    return f"{run}-{job}-0-{workers - 1}{POD_SUFFIX}"


def job_problems(doc: Document, run: Run) -> list[Problem]:
    jobs = run.job_list()
    if not jobs:
        hint = "list its replicatedJobs under `jobs`, e.g. `jobs: [{name: workers, workers: 4}]`"
        return [doc.at(["workload"]).problem(RULE, "workload jobset needs jobs", hint)]
    found: list[Problem] = []
    seen: set[str] = set()
    for i, job in enumerate(jobs):
        where = doc.spot(["jobs", i, "name"])
        if job.name in seen:
            hint = "give each job its own name: it names the replicatedJob and its pod set"
            found.append(where.problem(RULE, f"job name {job.name} is used twice", hint))
        seen.add(job.name)
        longest = pod_name(run.metadata.name, job.name, job.workers)
        if len(longest) > DNS1123_LABEL_MAX:
            room = DNS1123_LABEL_MAX - len(longest) + len(job.name)
            message = f"the JobSet's pod names reach {len(longest)} characters ({longest!r}); at most 63"
            hint = f"shorten the job name to at most {max(room, 1)} characters, or the run's name"
            found.append(where.problem(RULE, message, hint))
    if not run.metadata.name[0].isalpha():
        hint = "start the run's name with a letter: JobSet names its Jobs and pods after it (DNS-1035)"
        found.append(doc.at(["metadata", "name"]).problem(RULE, "a JobSet's name starts with a letter", hint))
    return found

"""Mark each recorded case: which taugen expresses, and why the others are out of scope."""
import sys, yaml
from classify import tags
REASONS = [  # first match wins: the order is the order of the docs' table
    ("balanced", "TASBalancedPlacement: an Alpha gate, off by default in v0.19.2"),
    ("affinity-preferred", "TASRespectNodeAffinityPreferred: an Alpha gate, off by default in v0.19.2"),
    ("affinity", "preferred node affinity: a taugen run carries only a required one"),
    ("previous", "ElasticJobsViaWorkloadSlicesWithTAS (elastic workloads, previous assignment): an Alpha gate, off by default in v0.19.2"),
    ("prior-usage", "usage of an overlapping flavor on the same nodes: taugen gives a node one flavor"),
    ("skip-reassignment-off", "SkipReassignmentForPodOwnedWorkloads off: the gate is on by default in v0.19.2 (Beta)"),
    ("pod-owned", "a workload owned by bare Pods (a Pod or a pod group): taugen renders Jobs and LeaderWorkerSets"),
]
def scope(v):
    t = tags(v)
    for tag, why in REASONS:
        if tag in t:
            return why
    return None
HEADER_T = """# Cases of {test} in {file} of kubernetes-sigs/kueue,
# tag v0.19.2 (commit 8eab68778fc1b52affe165fdf5af29d1e9b4f3cb): the inputs and the wanted
# results (`want...`) of each table case, recorded as data in taugen's own format (README.md
# in this folder). No code was copied. `outOfScope` says why taugen does not express a case.
"""
FILES = {"find-topology-assignments.yaml": "TestFindTopologyAssignments",
         "multi-layer-replacement.yaml": "TestFindTopologyAssignmentsMultiLayerReplacement"}
import os
for path in sys.argv[1:]:
    HEADER = HEADER_T.format(test=FILES[os.path.basename(path)], file="pkg/cache/scheduler/tas_cache_test.go")
    docs = list(yaml.safe_load_all(open(path)))
    out = []
    for d in docs:
        d.pop("outOfScope", None)
        why = scope(d)
        nd = {"name": d.pop("name")}
        if why: nd["outOfScope"] = why
        nd.update(d)
        out.append(nd)
    with open(path, "w") as f:
        f.write(HEADER)
        yaml.safe_dump_all(out, f, sort_keys=False, width=110, default_flow_style=None)

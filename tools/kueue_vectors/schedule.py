"""Record TestScheduleForTAS (pkg/scheduler/scheduler_tas_test.go) as taugen vectors.

    python3 schedule.py SOURCE OUT.yaml

Each case drives Kueue's whole scheduler for one cycle. A case simulate expresses (one
ClusterQueue, one TAS flavor, workloads of one PodSet or several (a JobSet run, K6), admitted
workloads of one PodSet and running pods)
is recorded with its facts and the wanted result (`wantNewAssignments`, `wantLeft`,
`wantInadmissibleLeft`, the pending message of `wantEvents`); any other case is recorded by
name with `outOfScope`, the first reason that applies.
"""
import sys

import yaml

import extract
from extract import Builder, Env, Unsupported, cases
from tovectors import Q, node

extract.GENERIC = True
yaml.SafeDumper.add_representer(Q, lambda d, v: d.represent_str(str(v)))
yaml.SafeDumper.add_representer(extract.Name, lambda d, v: d.represent_str(str(v)))

TEST = "TestScheduleForTAS"
HOST = "kubernetes.io/hostname"
DEFAULTS = {  # pkg/features/kube_features.go at v0.19.2, for the gates the cases set
    "TASMultiLayerTopology": True,
    "TASFailedNodeReplacementFailFast": True,
    "TASRecomputeAssignmentWithinSchedulingCycle": True,
    "TopologyAwareScheduling": True,
    "VectorizedResourceRequests": True,
    "SchedulerLibraryIntegration": False,
    "RecomputeAssignmentUponPreemptionTargetsOverlap": False,
}
HEADER = """# Cases of TestScheduleForTAS in pkg/scheduler/scheduler_tas_test.go of kubernetes-sigs/kueue,
# tag v0.19.2 (commit 8eab68778fc1b52affe165fdf5af29d1e9b4f3cb): the inputs and the wanted
# results (`want...`) of each table case that taugen simulate expresses, recorded as data in
# taugen's own format (README.md in this folder); every other case by name and `outOfScope`.
# No code was copied.
"""


def calls(b):
    return [n for n, _ in b.get("calls", [])] if isinstance(b, Builder) else []


def call(b, name):
    return [a for n, a in b["calls"] if n == name]


def scope(c):
    for gate, value in (c.get("featureGates") or {}).items():
        if DEFAULTS.get(gate, not value) != value:
            on = "on" if DEFAULTS.get(gate) else "off"
            return f"sets {gate}: {value}; taugen simulates v0.19.2's defaults ({gate} {on})"
    if c.get("admissionChecks"):
        return "admission checks (ProvisioningRequest, custom): taugen compiles none"
    if c.get("patchStatusErr"):
        return "an API error on the status patch: nothing simulate meets"
    if c.get("resourceTransformations"):
        return "resource transformations: not in taugen's Kueue configuration"
    wls = c["workloads"]
    if any("UnhealthyNodes" in calls(w) for w in wls):
        return ("Kueue's second-pass node replacement (findReplacementAssignment): not modelled; "
                "simulate replaces ranks host by host (S5)")
    if len(c["resourceFlavors"]) > 1 or len(c["topologies"]) > 1 or len(c["clusterQueues"]) > 1:
        return ("several flavors in one ClusterQueue as taugen never writes them (TAS beside non-TAS for one run, "
                "other Topologies, shared nodes, a flavor per pod set): R47's fallback flavors are disjoint classes "
                "on one Topology, one per run")
    if any(len(call(w, "PodSets")[0]) > 1 and "ReserveQuotaAt" in calls(w) for w in wls):
        return "an admitted workload of several PodSets: a WorkloadSet's admitted plan is a Job's (K6)"
    podsets = [p for w in wls for p in call(w, "PodSets")[0]]
    used = {n for p in podsets for n in calls(p)} | {n for f in c["resourceFlavors"] for n in calls(f)}
    if "PreferredDuringSchedulingIgnoredDuringExecution" in used:
        return "preferred node affinity: a taugen run carries only a required one"
    if "SetMinimumCount" in used:
        return "partial admission (minimum count): not in taugen"
    if any("NodeTaint" in calls(f) or "Taint" in calls(f) for f in c["resourceFlavors"]):
        return "a ResourceFlavor's nodeTaints (the flavor assigner's check): not simulated"
    known = levels(c["topologies"][0])
    asked = [a[0] for p in podsets for n, a in p["calls"] if n in ("RequiredTopologyRequest", "PreferredTopologyRequest")]
    if any(level not in known for level in asked):
        return "a level the flavor's Topology lacks: a taugen run asks only the Topology's levels"
    hosts = {n["labels"].get(HOST) for n in c["nodes"]}
    planned = [d["args"][0][0] for w in wls for adm in call(w, "ReserveQuotaAt") for (ps,) in [call(adm[0], "PodSets")]
               for a in ps for _, (ta,) in [x for x in a["calls"] if x[0] == "TopologyAssignment"] for _, (d,) in ta["calls"]]
    if any(h not in hosts for h in planned):
        return "an admitted workload on a node that is gone: a WorkloadSet's admitted plan names inventory nodes (S1)"
    if any(n not in {"Queue", "PodSets", "ReserveQuotaAt", "AdmittedAt"} for w in wls for n in calls(w)):
        return "a workload field simulate does not read"
    return None


def levels(t):
    found = call(t, "Levels")
    return list(found[0]) if found else [HOST]  # MakeDefaultOneLevelTopology: the host


def requirement(e):
    if set(e) - {"Key", "Operator", "Values"}:
        raise Unsupported(f"matchExpressions {sorted(e)}")
    return {"key": e["Key"], "operator": e["Operator"], "values": list(e.get("Values") or [])}


def toleration(t):
    return {k[0].lower() + k[1:]: v for k, v in t.items()}


def request(p):
    topology, out, extra = {}, {}, {}
    for name, args in p["calls"]:
        if name == "Request":
            out[args[0]] = Q(args[1])
        elif name == "RequiredTopologyRequest":
            topology["required"] = args[0]
        elif name == "PreferredTopologyRequest":
            topology["preferred"] = args[0]
        elif name == "UnconstrainedTopologyRequest":
            topology["unconstrained"] = True
        elif name == "SliceRequiredTopologyRequest":
            topology["sliceRequired"] = args[0]
        elif name == "SliceSizeTopologyRequest":
            topology["sliceSize"] = args[0]
        elif name == "SliceRequiredTopologyConstraints":  # outermost first, as tovectors.py
            topology["sliceLayers"] = [{"level": c["Topology"], "size": c["Size"]} for c in args]
        elif name == "RequiredDuringSchedulingIgnoredDuringExecution":  # nodeSelectorTerms, ORed
            terms = [[requirement(e) for e in t["MatchExpressions"]] for t in args[0]]
            extra = {"nodeAffinity": {"required": terms}}
        elif name == "Toleration":
            extra.setdefault("tolerations", []).append(toleration(args[0]))
        else:
            raise Unsupported(f"podset.{name}")
    found = {"name": p["args"][0], "count": p["args"][1], "requests": out, "topology": topology or {"implied": True}}
    return {**found, **extra}


def assignment(psa):
    out = {"name": psa["args"][0], "flavors": {}, "count": 1}
    for name, args in psa["calls"]:
        if name == "Assignment":
            out["flavors"][args[0]] = args[1]
        elif name == "Count":
            out["count"] = args[0]
        elif name == "TopologyAssignment":
            ta = args[0]
            given = ta["args"][0]  # utiltas.Levels(&topology), or the levels written out
            out["assignment"] = {
                "levels": list(given) if isinstance(given, list) else levels(given["args"][0]),
                "domains": [{"values": list(d["args"][0]), "count": d["args"][1]} for _, (d,) in ta["calls"]],
            }
    return out


def workload(w, ns_name):
    out = {"name": ns_name, "podSets": [request(p) for p in call(w, "PodSets")[0]]}
    if "ReserveQuotaAt" in calls(w):
        admission = call(w, "ReserveQuotaAt")[0][0]
        out["admitted"] = [assignment(a) for a in call(admission, "PodSets")[0]]
    return out


def pod(p):
    out = {"name": p["args"][0], "node": None, "phase": None, "requests": {}}
    for name, args in p["calls"]:
        key = {"NodeName": "node", "StatusPhase": "phase"}.get(name)
        if name == "Request":
            out["requests"][args[0]] = Q(args[1])
        elif key:
            out[key] = args[0]
        else:
            raise Unsupported(f"pod.{name}")
    return out


def pending_message(c, key):
    ns, name = key.split("/")
    for e in c.get("wantEvents") or []:
        if e["args"][:2] == [ns, name] and e["args"][3] == "Warning" and call(e, "Message"):
            return call(e, "Message")[0][0]
    return None


def convert(name, c):
    v = {"name": f"{TEST}/{name}"}
    why = scope(c)
    if why:
        v["outOfScope"] = why
        return v
    if c.get("featureGates"):
        v["gates"] = dict(c["featureGates"])
    (t,), (f,), (cq,) = c["topologies"], c["resourceFlavors"], c["clusterQueues"]
    v["topology"] = {"name": t["args"][0], "levels": levels(t)}
    v["flavor"] = {"name": f["args"][0], "nodeLabels": dict(a for a in call(f, "NodeLabel"))}
    if call(f, "Toleration"):  # spec.tolerations: Kueue's TAS adds them to the pod's
        v["flavor"]["tolerations"] = [toleration(t) for (t,) in call(f, "Toleration")]
    quotas = [fq for (fq,) in call(cq, "ResourceGroup")]
    v["clusterQueue"] = {"name": cq["args"][0], "quota": {fq["args"][0]: dict(call(fq, "Resource")) for fq in quotas}}
    v["nodes"] = [node(n) for n in c["nodes"]]
    if c.get("pods"):
        v["pods"] = [pod(p) for p in c["pods"]]
    v["workloads"] = [workload(w, f"{w['args'][1]}/{w['args'][0]}") for w in c["workloads"]]
    admitted = {k: [assignment(a) for a in call(adm, "PodSets")[0]] for k, adm in (c.get("wantNewAssignments") or {}).items()}
    left = [k for keys in (c.get("wantLeft") or {}).values() for k in keys]
    inadmissible = [k for keys in (c.get("wantInadmissibleLeft") or {}).values() for k in keys]
    expected = {}
    for w in v["workloads"]:
        key = w["name"]
        if key in admitted:
            expected[key] = {"admitted": admitted[key]}
        elif key in left or key in inadmissible:
            expected[key] = {"pending": pending_message(c, key), "inadmissible": key in inadmissible}
        elif "admitted" not in w:
            expected[key] = {"pending": pending_message(c, key), "inadmissible": False}
    v["expected"] = expected
    return v


if __name__ == "__main__":
    src = open(sys.argv[1]).read()
    env, elems = cases(src, TEST)
    docs = [convert(Env(env).ev(k), Env(env).ev(val)) for k, val in elems]
    with open(sys.argv[2], "w") as out:
        out.write(HEADER)
        yaml.safe_dump_all(docs, out, sort_keys=False, width=110, default_flow_style=None)
    print(len(docs), "written", sum("outOfScope" not in d for d in docs), "expressible")

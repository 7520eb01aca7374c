"""Write the recorded facts as taugen vectors (our format, see tests/data/tas-upstream/README)."""
import sys, yaml
from extract import Env, Unsupported, cases, Q, Builder

yaml.SafeDumper.add_representer(Q, lambda d, v: d.represent_str(str(v)))
yaml.SafeDumper.add_representer(Builder, lambda d, v: d.represent_dict(dict(v)))

def q(v):
    return str(v) if isinstance(v, (Q, str)) else v

def node(n):
    out = {"name": n["name"], "labels": dict(n["labels"]), "allocatable": {k: q(v) for k, v in n["allocatable"].items()}}
    out["ready"] = bool(n["ready"])
    if n["taints"]:
        out["taints"] = [{k[0].lower() + k[1:]: v for k, v in t.items()} for t in n["taints"]]
    if n.get("unschedulable"):
        out["unschedulable"] = True
    if n.get("conditions"):
        out["conditions"] = [{k[0].lower() + k[1:]: v for k, v in c.items()} for c in n["conditions"]]
    return out

def ta(t):
    if t is None:
        return None
    levels = t.get("levels", t.get("Levels"))
    doms = t.get("domains", t.get("Domains"))
    return {"levels": list(levels), "domains": [{"values": list(d["Values"]), "count": d["Count"]} for d in doms]}

def topo(r):
    if r is None:
        return None
    out = {}
    for k, v in r.items():
        key = {"Required": "required", "Preferred": "preferred", "Unconstrained": "unconstrained",
               "PodSetSliceRequiredTopology": "sliceRequired", "PodSetSliceSize": "sliceSize",
               "PodSetGroupName": "group"}.get(k)
        if k == "PodsetSliceRequiredTopologyConstraints":
            out["sliceLayers"] = [{"level": c["Topology"], "size": c["Size"]} for c in v]
            continue
        if key is None:
            raise Unsupported(f"topologyRequest.{k}")
        out[key] = v
    return out

def podset(p):
    out = {"name": p.get("podSetName") or "main", "count": p["count"], "perPod": dict(p["requests"])}
    if (t := topo(p.get("topologyRequest"))) is not None:
        out["topology"] = t
    else:
        out["topology"] = {"implied": True}
    for key in ("podSetGroupName", "nodeSelector", "tolerations", "nodeAffinity"):
        if p.get(key) is not None:
            out[{"podSetGroupName": "group"}.get(key, key)] = p[key]
    if p.get("previousAssignment") is not None:
        out["previousAssignment"] = ta(p["previousAssignment"])
    if p.get("wantReason"):
        out["expected"] = {"reason": p["wantReason"]}
    else:
        out["expected"] = ta(p.get("wantAssignment")) or {"assignment": None}
    return out

def pod(p):
    return {"name": p["name"], "node": p["node"], "requests": {k: q(v) for k, v in p["requests"].items()}, "phase": p["phase"]}

def convert(test, name, c):
    v = {"name": f"{test}/{name}"}
    if c.get("featureGates"):
        v["gates"] = dict(c["featureGates"])
    v["levels"] = list(c.get("levels") or env_levels)
    if c.get("nodeLabels"):
        v["flavorNodeLabels"] = dict(c["nodeLabels"])
    v["nodes"] = [node(n) for n in c["nodes"]]
    if c.get("pods"):
        v["pods"] = [pod(p) for p in c["pods"]]
    for key in ("priorFlavorUsage", "priorOwnUsage"):
        if c.get(key):
            v[key] = [{"values": list(u["Values"]), "perPod": dict(u["SinglePodRequests"]), "count": u["Count"]} for u in c[key]]
    if c.get("aggregatedDomainUsages"):
        raise Unsupported("aggregatedDomainUsages")
    if c.get("workload"):
        w = c["workload"]
        ps = w["admission"]["podsets"][0]
        v["workload"] = {"owners": w.get("owners", []), "annotations": dict(w.get("annotations") or {}),
                         "unhealthyNodes": w.get("unhealthy", []),
                         "admitted": {"count": ps["count"], "assignment": ta(ps["ta"])}}
    if "podSets" in c:
        v["podSets"] = [podset(p) for p in c["podSets"]]
    else:  # the MultiLayerReplacement shape
        v["podSets"] = [{"name": "main", "count": c["count"], "perPod": {"cpu": 1000},
                         "topology": topo(c["topologyRequest"])}]
        v["replacement"] = {"admittedCount": c["admissionCount"], "assignment": ta(c["existingTA"]),
                            "unhealthyNode": c["unhealthyNode"]}
        v["podSets"][0]["expected"] = {"reason": c["wantReason"]} if c.get("wantReason") else ta(c["wantAssignment"])
    return v

if __name__ == "__main__":
    src = open(sys.argv[1]).read()
    test = sys.argv[2]
    env, elems = cases(src, test)
    global env_levels
    env_levels = env.get("defaultLevels")
    docs, skipped = [], []
    for k, val in elems:
        name = Env(env).ev(k)
        try:
            docs.append(convert(test, name, Env(env).ev(val)))
        except Unsupported as exc:
            skipped.append((name, str(exc)))
    with open(sys.argv[3], "w") as f:
        yaml.safe_dump_all(docs, f, sort_keys=False, width=110, default_flow_style=None)
    for s in skipped:
        print("SKIP", s, file=sys.stderr)
    print(len(docs), "written", len(skipped), "skipped")

import sys, yaml, collections
def tags(v):
    t = set()
    g = v.get("gates", {})
    if g.get("TASBalancedPlacement"): t.add("balanced")
    if g.get("TASRespectNodeAffinityPreferred"): t.add("affinity-preferred")
    if g.get("TASProfileMixed") is False: t.add("mixed-off")
    ps = v["podSets"]
    if len(ps) > 1: t.add("multi-podset")
    for p in ps:
        tp = p.get("topology", {})
        if p.get("group"): t.add("group")
        if "sliceRequired" in tp or "sliceSize" in tp: t.add("slice")
        if "sliceLayers" in tp: t.add("slice-layers")
        if "preferred" in tp: t.add("preferred")
        if "unconstrained" in tp: t.add("unconstrained")
        if "implied" in tp: t.add("implied")
        if p.get("previousAssignment"): t.add("previous")
        if (p.get("nodeAffinity") or {}).get("PreferredDuringSchedulingIgnoredDuringExecution"): t.add("affinity")
        if p.get("nodeSelector"): t.add("nodeSelector")
        if p.get("tolerations"): t.add("tolerations")
    if v.get("workload") or v.get("replacement"): t.add("replacement")
    if any(o == "Pod" for o in (v.get("workload") or {}).get("owners", [])): t.add("pod-owned")
    if g.get("SkipReassignmentForPodOwnedWorkloads") is False: t.add("skip-reassignment-off")
    if v.get("pods"): t.add("pods")
    if v.get("priorFlavorUsage") or v.get("priorOwnUsage"): t.add("prior-usage")
    if v.get("flavorNodeLabels"): t.add("flavor-labels")
    if any(n.get("taints") for n in v["nodes"]): t.add("taints")
    if any(not n["ready"] or n.get("unschedulable") or n.get("conditions") for n in v["nodes"]): t.add("node-state")
    return t
if __name__ == "__main__":
  docs = [d for f in sys.argv[1:] for d in yaml.safe_load_all(open(f))]
  c = collections.Counter()
  for d in docs:
      tg = tags(d); c.update(tg)
      if "-v" in sys.argv[0]: print(sorted(tg), d["name"])
  print(len(docs), c.most_common())

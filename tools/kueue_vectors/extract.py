"""Record the facts of Kueue's TAS table tests as data (inputs and wanted results)."""

from __future__ import annotations

import re
import sys
from typing import Any

import goparse
from goparse import Bin, Call, Comp, FuncLit, Id, Index, Lit, Parser, Sel, Un, func_body, tokens

goparse._typeish = lambda x: True  # inside composite literals every `X{` is a literal


class Unsupported(Exception):
    pass


SEL = {
    "LabelHostname": "kubernetes.io/hostname",
    "ResourceCPU": "cpu",
    "ResourceMemory": "memory",
    "ResourcePods": "pods",
    "ResourceEphemeralStorage": "ephemeral-storage",
    "TaintEffectNoSchedule": "NoSchedule",
    "TaintEffectNoExecute": "NoExecute",
    "TaintEffectPreferNoSchedule": "PreferNoSchedule",
    "TolerationOpExists": "Exists",
    "TolerationOpEqual": "Equal",
    "NodeSelectorOpIn": "In",
    "NodeSelectorOpNotIn": "NotIn",
    "NodeSelectorOpExists": "Exists",
    "NodeSelectorOpDoesNotExist": "DoesNotExist",
    "PodRunning": "Running",
    "PodFailed": "Failed",
    "PodSucceeded": "Succeeded",
    "PodPending": "Pending",
    "ConditionTrue": "True",
    "ConditionFalse": "False",
    "NodeNetworkUnavailable": "NetworkUnavailable",
    "NodeReady": "Ready",
}


class Q(str):
    """A Kubernetes quantity written as text."""


GENERIC = False  # schedule.py: record every builder call instead of refusing unknown ones


class Name(str):
    """GENERIC: a Go name or selector the reader does not evaluate (e.g. `now`, `kueue.X`)."""


class Builder(dict):
    kind = ""


class Env:
    def __init__(self, values: dict[str, Any]):
        self.values = values

    def ev(self, n: Any) -> Any:
        if isinstance(n, Lit):
            return n.value
        if isinstance(n, Id):
            if n.name in self.values:
                return self.values[n.name]
            if GENERIC:
                return Name(n.name)
            raise Unsupported(f"name {n.name}")
        if isinstance(n, Sel):
            if isinstance(n.x, Id) and n.x.name == "features":
                return n.name
            if n.name in SEL:
                return SEL[n.name]
            if n.name == "SchemeGroupVersion":
                return _b("gv")
            if n.name == "IsGroupWorkloadAnnotationKey":
                return "kueue.x-k8s.io/is-group-workload"
            if n.name == "IsGroupWorkloadAnnotationValue":
                return "true"
            if n.name == "TopologyAssignment":
                v = self.ev(n.x)
                if isinstance(v, Builder) and v.kind == "ta":
                    return v
            if isinstance(n.x, Id) and n.x.name in self.values:
                v = self.values[n.x.name]
                if isinstance(v, dict) and n.name in v:
                    return v[n.name]
            if GENERIC:
                return Name(n.name)
            raise Unsupported(f"selector {n.name}")
        if isinstance(n, Un):
            v = self.ev(n.x)
            if n.op == "-":
                return -v
            return v
        if isinstance(n, Bin):
            a, b = self.ev(n.a), self.ev(n.b)
            return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if isinstance(a, int) else a / b}[n.op]
        if isinstance(n, Comp):
            return self.comp(n)
        if isinstance(n, Call):
            return self.call(n)
        if isinstance(n, Index):
            raise Unsupported("index")
        if isinstance(n, FuncLit):
            raise Unsupported("a function value")
        raise Unsupported(f"node {type(n).__name__}")

    def comp(self, n: Comp) -> Any:
        is_map = isinstance(n.type, tuple) and n.type[0] == "map"
        fields = self.struct_fields(n.type)
        if fields is not None:
            return self.struct(fields, n)
        item = self.struct_fields(n.type[1]) if isinstance(n.type, tuple) and n.type[0] == "slice" else None
        if item is not None:  # []T{{..}, ..} of a struct type the closure declared
            return [self.struct(item, v) if isinstance(v, Comp) and v.type is None else self.ev(v) for _k, v in n.elems]
        if not n.elems:
            return {} if is_map else []
        if n.elems[0][0] is None:
            return [self.ev(v) for _k, v in n.elems]
        out = {}
        for k, v in n.elems:
            if is_map or not isinstance(k, Id):
                key = self.ev(k)
            else:
                key = k.name
            out[key] = self.ev(v)
        return out

    def struct_fields(self, typ: Any) -> list[str] | None:
        """The field names of a struct type declared in a func literal (`type T struct{..}`)."""
        if isinstance(typ, Id):
            return self.values.get(STRUCT + typ.name)
        return None

    def struct(self, fields: list[str], n: Comp) -> dict[str, Any]:
        if all(k is None for k, _v in n.elems):
            if len(n.elems) != len(fields):
                raise Unsupported("a positional struct literal of another length")
            return {f: self.ev(v) for f, (_k, v) in zip(fields, n.elems)}
        return {k.name: self.ev(v) for k, v in n.elems}

    def run(self, f: FuncLit, args: list[Any]) -> Any:
        """A func literal called where it is written (`func() T { .. }()`): its body runs in
        a scope of its own over the enclosing names; the value is what it returns."""
        try:
            params, body = func_body(f)
        except (SyntaxError, IndexError) as exc:
            raise Unsupported(f"func literal: {exc}") from None
        if params or args:
            raise Unsupported("a func literal with parameters")
        done = Env(dict(self.values)).block(body)
        if done is None:
            raise Unsupported("a func literal that returns nothing")
        return done[0]

    def block(self, stmts: list[Any]) -> tuple[Any] | None:
        """Run statements; (value,) once one returns."""
        for s in stmts:
            kind = s[0]
            if kind == "type":
                self.values[STRUCT + s[1]] = s[2]
            elif kind == "var":
                self.values[s[1]] = zero(s[2])
            elif kind in ("define", "assign"):
                self.values[s[1]] = self.ev(s[2])
            elif kind == "add":
                self.values[s[1]] = self.values[s[1]] + self.ev(s[2])
            elif kind == "return":
                return (self.ev(s[1]),)
            elif kind == "range":
                done = self.range(s[1], self.ev(s[2]), s[3])
                if done is not None:
                    return done
            elif kind == "for":
                done = self.loop(*s[1:])
                if done is not None:
                    return done
            elif kind == "expr":
                self.ev(s[1])
            else:
                raise Unsupported(f"statement {kind}")
        return None

    def range(self, names: list[str], over: Any, body: list[Any]) -> tuple[Any] | None:
        if isinstance(over, bool) or not isinstance(over, (int, list)):
            raise Unsupported("range over a map or another value")  # a map's order is random in Go
        pairs = enumerate(range(over)) if isinstance(over, int) else enumerate(over)
        for i, v in pairs:
            for name, value in zip(names, (i, v)):
                if name != "_":
                    self.values[name] = value
            done = self.block(body)
            if done is not None:
                return done
        return None

    def loop(self, init: Any, cond: Any, post: Any, body: list[Any]) -> tuple[Any] | None:
        if init is not None:
            self.block([init])
        for _ in range(LOOP_LIMIT):
            _, op, a, b = cond
            x, y = self.ev(a), self.ev(b)
            if not {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y, "==": x == y, "!=": x != y}[op]:
                return None
            done = self.block(body)
            if done is not None:
                return done
            if post is not None:
                self.block([post])
        raise Unsupported("a loop of more than LOOP_LIMIT rounds")

    def call(self, n: Call) -> Any:
        fn = n.fn
        args = [self.ev(a) for a in n.args]
        if isinstance(fn, FuncLit):
            return self.run(fn, args)
        if isinstance(fn, Id):
            if fn.name == "append":
                out = list(args[0])
                for a in args[1:]:
                    out.extend(a) if isinstance(a, list) else out.append(a)
                return out
            if fn.name == "new":
                return args[0]
            if fn.name in ("int32", "int64", "int", "string"):
                return args[0]
            raise Unsupported(f"call {fn.name}")
        if isinstance(fn, ("".__class__, tuple)):
            raise Unsupported("call")
        if isinstance(fn, Sel):
            name = fn.name
            if isinstance(fn.x, Id):
                pkg = fn.x.name
                if GENERIC and name.startswith("Make") and name != "MakeNode":
                    return _b(name, args=args, calls=[])
                if name == "MustParse":
                    return Q(args[0])
                if pkg == "fmt" and name == "Sprintf":
                    return sprintf(args[0], args[1:])
                if pkg == "ptr" and name == "To":
                    return args[0]
                if name in ("NewRequestsFromMap", "V1Beta2From", "NewPodSetReference"):
                    return args[0]
                if name == "ResourceName":
                    return args[0]
                if name == "PodSetReference":
                    return args[0]
                if name == "MakeNode":
                    return _b("node", name=args[0], labels={}, allocatable={}, ready=None, taints=[])
                if name == "MakePod":
                    return _b("pod", name=args[0], requests={}, node=None, phase=None)
                if name == "MakeTopologyAssignment":
                    return _b("ta", levels=args[0], domains=[])
                if name == "MakeWorkload":
                    return _b("wl", name=args[0])
                if name == "MakeAdmission":
                    return _b("adm", podsets=[])
                if name == "MakePodSetAssignment":
                    return _b("psa", name=args[0])
                if name == "MakePreferredSchedulingTerms":
                    return _b("pst", terms=[])
                if name == "MakeNodeSelectorTerms":
                    return _b("nst", terms=[])
                if GENERIC and pkg not in self.values:
                    return _b(name, args=args, calls=[])
                raise Unsupported(f"call {pkg}.{name}")
            recv = self.ev(fn.x)
            if not isinstance(recv, Builder):
                if name == "WithKind":
                    return args[0]
                if GENERIC:
                    return _b(name, recv=recv, args=args, calls=[])
                raise Unsupported(f"method {name}")
            if GENERIC and "calls" in recv:
                if name != "Obj":
                    recv["calls"].append((name, args))
                return recv
            return _method(recv, name, args)
        raise Unsupported("call")


STRUCT = "struct "  # the key of a declared struct type's field names (no Go name has a space)
LOOP_LIMIT = 1_000_000


def zero(typ: Any) -> Any:
    """Go's zero value of a `var x T`, for the types the closures declare."""
    if isinstance(typ, tuple) and typ[0] == "slice":
        return []
    if isinstance(typ, tuple) and typ[0] == "map":
        return {}
    if isinstance(typ, Id) and typ.name in ("int", "int32", "int64"):
        return 0
    if isinstance(typ, Id) and typ.name == "string":
        return ""
    raise Unsupported("var of another type")


def sprintf(fmt: str, args: list[Any]) -> str:
    """fmt.Sprintf with the verbs %s, %d, %v and %%."""
    out, rest = [], list(args)
    parts = re.split(r"(%.)", fmt)
    for part in parts:
        if part == "%%":
            out.append("%")
        elif part in ("%s", "%d", "%v"):
            if not rest:
                raise Unsupported("Sprintf: too few arguments")
            value = rest.pop(0)
            if part == "%d" and (isinstance(value, bool) or not isinstance(value, int)):
                raise Unsupported("Sprintf: %d of a non-integer")
            out.append(str(value))
        elif part.startswith("%") and len(part) == 2:
            raise Unsupported(f"Sprintf verb {part}")
        else:
            out.append(part)
    if rest:
        raise Unsupported("Sprintf: too many arguments")
    return "".join(out)


def _b(kind: str, **fields: Any) -> Builder:
    b = Builder(fields)
    b.kind = kind
    return b


def _method(b: Builder, name: str, args: list[Any]) -> Any:
    k = b.kind
    if name == "Obj":
        return b
    if k == "node":
        if name == "Label":
            b["labels"][args[0]] = args[1]
        elif name == "StatusAllocatable":
            b["allocatable"].update(args[0])
        elif name == "Ready":
            b["ready"] = True
        elif name == "NotReady":
            b["ready"] = False
        elif name == "Taints":
            b["taints"].extend(args)
        elif name == "Unschedulable":
            b["unschedulable"] = True
        elif name == "StatusConditions":
            b.setdefault("conditions", []).extend(args)
        else:
            raise Unsupported(f"node.{name}")
        return b
    if k == "pod":
        if name == "Request":
            b["requests"][args[0]] = Q(args[1]) if isinstance(args[1], str) else args[1]
        elif name == "NodeName":
            b["node"] = args[0]
        elif name == "StatusPhase":
            b["phase"] = args[0]
        else:
            raise Unsupported(f"pod.{name}")
        return b
    if k == "ta":
        if name == "Domain":
            b["domains"].append(args[0])
            return b
        raise Unsupported(f"ta.{name}")
    if k == "wl":
        if name in ("OwnerReference",):
            b.setdefault("owners", []).append(args[0] if isinstance(args[0], str) else str(args[0]))
        elif name == "Admission":
            b["admission"] = args[0]
        elif name == "UnhealthyNodes":
            b["unhealthy"] = list(args)
        elif name == "Annotations":
            b["annotations"] = args[0]
        else:
            raise Unsupported(f"wl.{name}")
        return b
    if k == "adm":
        if name == "PodSets":
            b["podsets"].extend(args)
            return b
        raise Unsupported(f"adm.{name}")
    if k == "psa":
        if name == "Count":
            b["count"] = args[0]
        elif name == "TopologyAssignment":
            b["ta"] = args[0]
        else:
            raise Unsupported(f"psa.{name}")
        return b
    if k == "gv" and name == "WithKind":
        return args[0]
    if k in ("pst", "nst"):
        if name == "Term":
            b["terms"].append(args)
            return b
    raise Unsupported(f"{k}.{name}")


def preamble(text: str, env: dict[str, Any]) -> None:
    """const blocks and `name := expr` statements before the cases."""
    p = Parser(tokens(text))
    e = Env(env)
    while p.i < len(p.t):
        v = p.peek()
        if v == "const":
            p.next()
            p.expect("(")
            while p.peek() != ")":
                name = p.next()[1]
                p.expect("=")
                env[name] = e.ev(p.expr())
            p.next()
        elif p.peek(1) == ":=":
            name = p.next()[1]
            p.next()
            try:
                env[name] = e.ev(p.expr())
            except Unsupported:
                env.pop(name, None)
        else:
            p.next()


def cases(src: str, func: str, end_marker: str = "for name, tc := range cases") -> tuple[dict[str, Any], list[Any]]:
    start = src.index(f"func {func}(t")
    body = src[start:]
    body = body[body.index("{") + 1 :]
    i = body.index("cases := map[string]")
    env: dict[str, Any] = {}
    preamble(body[:i], env)
    j = body.index("}{", i) if "struct" in body[i : i + 40] else body.index("{", i)
    end = body.index(end_marker)
    p = Parser(tokens(body[j + 1 if "struct" in body[i : i + 40] else j : end]))
    c = p.comp(("map", Id("string"), Id("x")))
    return env, c.elems


if __name__ == "__main__":
    src = open(sys.argv[1]).read()
    env, elems = cases(src, sys.argv[2])
    ok = bad = 0
    from collections import Counter

    why = Counter()
    for k, v in elems:
        try:
            Env(env).ev(v)
            ok += 1
        except Unsupported as exc:
            bad += 1
            why[str(exc)] += 1
    print(ok, bad, why)

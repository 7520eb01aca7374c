"""A tiny reader of Go expressions (composite literals, call chains) -> a tree of tuples."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

TOKEN = re.compile(
    r"""(?P<ws>\s+)|(?P<lc>//[^\n]*)|(?P<bc>/\*.*?\*/)|(?P<str>"(?:\\.|[^"\\])*")|(?P<raw>`[^`]*`)"""
    r"""|(?P<num>\d+(?:\.\d+)?(?:e\d+)?)|(?P<id>[A-Za-z_]\w*)|(?P<op>:=|\.\.\.|&&|\|\||==|!=|<=|>=|[{}()\[\],:.&*+\-/=<>!;])""",
    re.S,
)


def tokens(text: str) -> list[tuple[str, str]]:
    out = []
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise SyntaxError(f"bad char at {pos}: {text[pos:pos+30]!r}")
        pos = m.end()
        kind = m.lastgroup
        if kind in ("ws", "lc", "bc"):
            continue
        out.append((kind, m.group()))
    return out


@dataclass
class Id:
    name: str


@dataclass
class Sel:
    x: Any
    name: str


@dataclass
class Call:
    fn: Any
    args: list[Any]


@dataclass
class Comp:
    type: Any
    elems: list[tuple[Any, Any]]


@dataclass
class Un:
    op: str
    x: Any


@dataclass
class Bin:
    op: str
    a: Any
    b: Any


@dataclass
class Index:
    x: Any
    i: Any


@dataclass
class Lit:
    value: Any


@dataclass
class FuncLit:
    toks: list[tuple[str, str]]  # the whole literal, `func` to its closing brace


class Parser:
    def __init__(self, toks: list[tuple[str, str]]):
        self.t = toks
        self.i = 0
        self.nocomp = False  # a for/if header: `x {` opens the block, not a composite literal

    def peek(self, k: int = 0) -> str:
        return self.t[self.i + k][1] if self.i + k < len(self.t) else ""

    def next(self) -> tuple[str, str]:
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect(self, v: str) -> None:
        tok = self.next()
        if tok[1] != v:
            raise SyntaxError(f"expected {v} got {tok} near {self.t[self.i-5:self.i+5]}")

    def expr(self) -> Any:
        a = self.unary()
        while self.peek() in ("+", "-", "*", "/"):
            op = self.next()[1]
            a = Bin(op, a, self.unary())
        return a

    def unary(self) -> Any:
        if self.peek() in ("&", "*", "-", "!"):
            op = self.next()[1]
            return Un(op, self.unary())
        return self.postfix(self.primary())

    def type_expr(self) -> Any:
        if self.peek() == "[":
            self.next()
            if self.peek() == "]":
                self.next()
                return ("slice", self.type_expr())
            n = self.expr()
            self.expect("]")
            return ("array", n, self.type_expr())
        if self.peek() == "*":
            self.next()
            return ("ptr", self.type_expr())
        if self.peek() == "map":
            self.next()
            self.expect("[")
            k = self.type_expr()
            self.expect("]")
            return ("map", k, self.type_expr())
        if self.peek() == "func":
            raise SyntaxError("func type")
        name = Id(self.next()[1])
        while self.peek() == ".":
            self.next()
            name = Sel(name, self.next()[1])
        if self.peek() == "[" and self.peek(1) != "]":  # generic
            self.next()
            args = [self.type_expr()]
            while self.peek() == ",":
                self.next()
                args.append(self.type_expr())
            self.expect("]")
            return ("generic", name, args)
        return name

    def primary(self) -> Any:
        kind, v = self.t[self.i]
        if v in ("[", "map"):
            typ = self.type_expr()
            return self.comp(typ)
        if v == "(":
            self.next()
            e = self.expr()
            self.expect(")")
            return e
        if v == "{":
            return self.comp(None)
        if v == "func":
            return self.func_lit()
        self.next()
        if kind == "str":
            return Lit(bytes(v[1:-1], "utf-8").decode("unicode_escape"))
        if kind == "raw":
            return Lit(v[1:-1])
        if kind == "num":
            return Lit(float(v) if "." in v or "e" in v else int(v))
        if kind == "id":
            if v in ("true", "false"):
                return Lit(v == "true")
            if v == "nil":
                return Lit(None)
            return Id(v)
        raise SyntaxError(f"unexpected {v}")

    def func_lit(self) -> Any:
        # a func literal: func(...) T { ... }, kept as tokens; its body is parsed when it runs
        start = self.i
        self.next()
        depth = 0
        while True:
            v = self.next()[1]
            if v == "{":
                depth += 1
            elif v == "}":
                depth -= 1
                if depth == 0:
                    break
        return FuncLit(self.t[start : self.i])

    def postfix(self, x: Any) -> Any:
        while True:
            p = self.peek()
            if p == ".":
                self.next()
                if self.peek() == "(":  # type assertion
                    self.next()
                    t = self.type_expr()
                    self.expect(")")
                    x = ("assert", x, t)
                    continue
                x = Sel(x, self.next()[1])
            elif p == "(":
                self.next()
                args = []
                while self.peek() != ")":
                    args.append(self.expr())
                    if self.peek() == "...":
                        self.next()
                    if self.peek() == ",":
                        self.next()
                self.expect(")")
                x = Call(x, args)
            elif p == "{" and not self.nocomp and isinstance(x, (Id, Sel)) and _typeish(x):
                x = self.comp(x)
            elif p == "[":
                self.next()
                if isinstance(x, (Id, Sel)) and _typeish(x):  # generic type args
                    args = [self.type_expr()]
                    while self.peek() == ",":
                        self.next()
                        args.append(self.type_expr())
                    self.expect("]")
                    x = ("generic", x, args)
                    if self.peek() == "{":
                        x = self.comp(x)
                    continue
                i = self.expr()
                self.expect("]")
                x = Index(x, i)
            else:
                return x

    def comp(self, typ: Any) -> Comp:
        self.expect("{")
        elems = []
        while self.peek() != "}":
            a = self.expr()
            if self.peek() == ":":
                self.next()
                b = self.expr()
                elems.append((a, b))
            else:
                elems.append((None, a))
            if self.peek() == ",":
                self.next()
        self.expect("}")
        return Comp(typ, elems)


def _typeish(x: Any) -> bool:
    name = x.name if isinstance(x, (Id, Sel)) else ""
    return bool(name) and name[0].isupper() or name in ("string", "int", "int32", "int64", "bool")


def parse_expr(text: str) -> Any:
    p = Parser(tokens(text))
    return p.expr()


class StmtParser(Parser):
    """The statements of a func literal's body that the tables use to build their inputs:
    `type T struct{..}`, `var x T`, `x := e`, `x = e`, `x += e`, `x++`, `for` over a range
    (a slice or an int) or with three clauses, and `return e`. Statements are tuples."""

    def block(self) -> list[Any]:
        self.expect("{")
        out = []
        while self.peek() != "}":
            out.append(self.stmt())
            if self.peek() == ";":
                self.next()
        self.expect("}")
        return out

    def stmt(self) -> Any:
        v = self.peek()
        if v == "type":
            self.next()
            name = self.next()[1]
            self.expect("struct")
            self.expect("{")
            fields = []
            while self.peek() != "}":
                names = [self.next()[1]]
                while self.peek() == ",":
                    self.next()
                    names.append(self.next()[1])
                self.type_expr()
                fields += names
            self.expect("}")
            return ("type", name, fields)
        if v == "var":
            self.next()
            name = self.next()[1]
            typ = self.type_expr()
            if self.peek() == "=":
                self.next()
                return ("define", name, self.expr())
            return ("var", name, typ)
        if v == "for":
            self.next()
            return self.for_stmt()
        if v == "return":
            self.next()
            return ("return", self.expr())
        return self.simple()

    def simple(self) -> Any:
        name, op = self.peek(), self.peek(1)
        if op in (":=", "="):
            self.i += 2
            return ("define" if op == ":=" else "assign", name, self.expr())
        if op in ("+", "-") and self.peek(2) == op:
            self.i += 3
            return ("add", name, Lit(1 if op == "+" else -1))
        if op in ("+", "-") and self.peek(2) == "=":
            self.i += 3
            e = self.expr()
            return ("add", name, e if op == "+" else Un("-", e))
        return ("expr", self.expr())

    def header(self) -> list[str]:
        """The tokens of a for header, up to its block's `{`."""
        depth, j = 0, self.i
        while True:
            v = self.t[j][1]
            if v in ("(", "["):
                depth += 1
            elif v in (")", "]"):
                depth -= 1
            elif v == "{" and depth == 0:
                return [t[1] for t in self.t[self.i : j]]
            j += 1

    def for_stmt(self) -> Any:
        head = self.header()
        self.nocomp = True
        if "range" in head:
            names = []
            while self.peek() != "range":
                tok = self.next()[1]
                if tok not in (",", ":=", "="):
                    names.append(tok)
            self.next()
            over = self.expr()
            self.nocomp = False
            return ("range", names, over, self.block())
        if head.count(";") != 2:
            raise SyntaxError(f"for header {head}")
        init = self.simple() if self.peek() != ";" else None
        self.expect(";")
        a = self.expr()
        op = self.next()[1]
        if op not in ("<", "<=", ">", ">=", "==", "!="):
            raise SyntaxError(f"for condition {op}")
        cond = ("cmp", op, a, self.expr())
        self.expect(";")
        post = self.simple() if self.peek() != "{" else None
        self.nocomp = False
        return ("for", init, cond, post, self.block())


def func_body(f: FuncLit) -> tuple[list[str], list[Any]]:
    """A func literal's parameter tokens and its body's statements."""
    p = StmtParser(f.toks)
    p.expect("func")
    p.expect("(")
    params = []
    while p.peek() != ")":
        params.append(p.next()[1])
    p.expect(")")
    while p.peek() != "{":  # the result type
        p.next()
    body = p.block()
    if p.i != len(p.t):
        raise SyntaxError("tokens after the func literal's body")
    return params, body

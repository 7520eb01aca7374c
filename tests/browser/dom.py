"""The rendered DOM, as elements and tables per cluster section (stdlib html.parser)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass(frozen=True)
class Element:
    tag: str
    attrs: dict[str, str]
    cluster: str  # the data-cluster of the enclosing section; "" outside one

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


@dataclass
class Dom(HTMLParser):
    elements: list[Element] = field(default_factory=list)
    tables: dict[tuple[str, str], list[list[str]]] = field(default_factory=dict)
    _sections: list[str] = field(default_factory=list)
    _table: list[list[str]] | None = None
    _cell: list[str] | None = None

    def __post_init__(self) -> None:
        super().__init__()

    @property
    def cluster(self) -> str:
        return next((s for s in reversed(self._sections) if s), "")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "section":
            self._sections.append(values.get("data-cluster", ""))
        self.elements.append(Element(tag, values, self.cluster))
        if tag == "table":
            self._table = self.tables.setdefault((self.cluster, values.get("class", "")), [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self._sections:
            self._sections.pop()
        elif tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._table is not None and self._cell is not None:
            self._table[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def levels(self, cluster: str) -> Counter[str]:
        """Drawn domain and host elements per level (aggregates excluded)."""
        return Counter(
            e.attrs["data-level"] for e in self.elements if e.cluster == cluster and "dom" in e.classes
        )

    def host(self, name: str) -> Element:
        (found,) = [e for e in self.elements if e.attrs.get("data-host") == name]
        return found


def parse(html: str) -> Dom:
    dom = Dom()
    dom.feed(html)
    dom.close()
    return dom

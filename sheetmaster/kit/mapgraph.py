"""A map as a graph with typed edges (after godip): land borders, sea links, coasts, ports,
railroads, canals, waterways. Paths, distances, and connectivity through provinces that pass
a test (e.g. "owned and not occupied") are asked of it, never hand-coded per ruleset.

The graph reads each node's neighbours from the rows a ruleset already loaded (an attribute
per edge kind, e.g. a territory's ``borders``), so a map of a million territories costs no
second copy of its adjacency.
"""

from __future__ import annotations

import operator
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

LAND, SEA, COAST, PORT, RAIL, CANAL, WATERWAY = (
    "land", "sea", "coast", "port", "rail", "canal", "waterway")

Passable = Callable[[str], bool]


class MapGraph:
    """Nodes (provinces, sea zones...) joined by edges of named kinds."""

    def __init__(self) -> None:
        #: kind -> node -> neighbours; a kind's mapping may be a view over loaded rows.
        self._edges: dict[str, Mapping[str, Sequence[str]]] = {}
        self._added: dict[str, dict[str, list[str]]] = {}
        self._cache: dict[tuple[str, ...] | None, list[Mapping[str, Sequence[str]]]] = {}

    @classmethod
    def from_rows(cls, rows: Mapping[str, Any], kinds: Mapping[str, str]) -> MapGraph:
        """A graph over ``rows`` (name -> row object) whose edge kinds are read from the
        rows' attributes: ``kinds`` maps an edge kind to the attribute, e.g.
        ``{LAND: "borders", WATERWAY: "waterways"}``."""
        graph = cls()
        for kind, attr in kinds.items():
            graph._edges[kind] = _AttrView(rows, attr)
        graph._cache.clear()
        return graph

    def add(self, a: str, b: str, kind: str) -> None:
        """An edge of ``kind`` between ``a`` and ``b`` (both ways)."""
        self._cache.clear()
        added = self._added.setdefault(kind, {})
        added.setdefault(a, []).append(b)
        added.setdefault(b, []).append(a)

    def kinds(self) -> list[str]:
        return list(dict.fromkeys([*self._edges, *self._added]))

    def neighbours(self, node: str, kinds: Iterable[str] | None = None) -> list[str]:
        """Nodes one edge of these kinds away (all kinds if None), in declaration order."""
        out: list[str] = []
        for source in self._sources(kinds):
            out += source.get(node, ())
        return out if len(out) < 2 else list(dict.fromkeys(out))

    def any_neighbour(self, node: str, test: Passable, kinds: Iterable[str] | None = None
                      ) -> bool:
        """Whether a node one edge of these kinds away passes ``test`` (e.g. "a territory
        he owns"). Asks no more than it needs and builds no list: a hot path when a million
        claims each ask it."""
        for source in self._sources(kinds):
            for nxt in source.get(node, ()):
                if test(nxt):
                    return True
        return False

    def _sources(self, kinds: Iterable[str] | None) -> list[Mapping[str, Sequence[str]]]:
        """The node -> neighbours mappings of these kinds (kept: a hot path on big maps)."""
        key = None if kinds is None else tuple(kinds)
        found = self._cache.get(key)
        if found is None:
            found = []
            for kind in (self.kinds() if key is None else key):
                if kind in self._edges:
                    found.append(self._edges[kind])
                if kind in self._added:
                    found.append(self._added[kind])
            self._cache[key] = found
        return found

    def adjacent(self, a: str, b: str, kinds: Iterable[str] | None = None) -> bool:
        return b in self.neighbours(a, kinds)

    def distances(self, start: str | Iterable[str], kinds: Iterable[str] | None = None, *,
                  through: Passable | None = None, enter: Passable | None = None,
                  limit: int | None = None) -> dict[str, int]:
        """Edges needed to reach each node from the nearest start (breadth first; ``start``
        is one node or several, each at 0). A path may enter only nodes for which ``enter``
        is true and pass only through nodes for which ``through`` is true (its end need not
        be one); the starts are exempt from both. ``limit`` bounds the distance."""
        starts = [start] if isinstance(start, str) else list(dict.fromkeys(start))
        kinds = list(self.kinds() if kinds is None else kinds)
        seen = dict.fromkeys(starts, 0)
        queue = deque(starts)
        while queue:
            node = queue.popleft()
            if limit is not None and seen[node] >= limit:
                continue
            if through is not None and seen[node] and not through(node):
                continue  # reached, but not passed through
            for nxt in self.neighbours(node, kinds):
                if nxt not in seen and (enter is None or enter(nxt)):
                    seen[nxt] = seen[node] + 1
                    queue.append(nxt)
        return seen

    def distance(self, a: str, b: str, kinds: Iterable[str] | None = None, *,
                 through: Passable | None = None) -> int | None:
        return self.distances(a, kinds, through=through).get(b)

    def path(self, a: str, b: str, kinds: Iterable[str] | None = None, *,
             through: Passable | None = None) -> list[str] | None:
        """A shortest path from ``a`` to ``b`` (both included), or None."""
        kinds = list(self.kinds() if kinds is None else kinds)
        came: dict[str, str | None] = {a: None}
        queue = deque([a])
        while queue:
            node = queue.popleft()
            if node == b:
                out = [b]
                while came[out[-1]] is not None:
                    out.append(came[out[-1]])  # type: ignore[arg-type]
                return out[::-1]
            if node != a and through is not None and not through(node):
                continue
            for nxt in self.neighbours(node, kinds):
                if nxt not in came:
                    came[nxt] = node
                    queue.append(nxt)
        return None

    def is_path(self, nodes: Sequence[str], kinds: Iterable[str] | None = None) -> bool:
        """Whether each node of ``nodes`` is one edge of these kinds from the one before."""
        kinds = list(self.kinds() if kinds is None else kinds)
        return all(self.adjacent(a, b, kinds) for a, b in zip(nodes, nodes[1:]))

    def connected(self, start: str, kinds: Iterable[str] | None = None, *,
                  through: Passable) -> set[str]:
        """The nodes passing ``through`` that link to ``start`` by nodes that pass it too,
        e.g. the provinces in supply: owned, unoccupied, linked to the capital."""
        if not through(start):
            return set()
        kinds = list(self.kinds() if kinds is None else kinds)
        seen = {start}
        queue = deque([start])
        while queue:
            for nxt in self.neighbours(queue.popleft(), kinds):
                if nxt not in seen and through(nxt):
                    seen.add(nxt)
                    queue.append(nxt)
        return seen

    def components(self, nodes: Iterable[str], kinds: Iterable[str] | None = None
                   ) -> list[list[str]]:
        """``nodes`` split into groups linked among themselves, each in the given order."""
        nodes = list(nodes)
        wanted = set(nodes)
        placed: set[str] = set()
        out = []
        for node in nodes:
            if node in placed:
                continue
            group = self.connected(node, kinds, through=wanted.__contains__)
            placed |= group
            out.append([n for n in nodes if n in group])
        return out


class _AttrView(Mapping[str, Sequence[str]]):
    """node -> getattr(rows[node], attr), without copying."""

    def __init__(self, rows: Mapping[str, Any], attr: str) -> None:
        self._rows, self._attr = rows, attr
        self._get = operator.attrgetter(attr)

    def __getitem__(self, node: str) -> Sequence[str]:
        return getattr(self._rows[node], self._attr)

    def get(self, node: str, default: Any = None) -> Any:
        row = self._rows.get(node)
        return default if row is None else self._get(row)

    def __iter__(self):
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


__all__ = ["CANAL", "COAST", "LAND", "MapGraph", "PORT", "RAIL", "SEA", "WATERWAY"]

"""Who holds what: each owner's holdings (provinces, territories...) kept in step with the
rows' owner fields, so counts and lists never need a scan of the map."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Holdings:
    """owner -> the rows it holds, by name, in the order they were taken: its rows are listed
    without looking each name up among every row of the map (issue 26.1: on a large map each
    such look-up is a cache miss)."""

    def __init__(self, rows: Iterable[Any] = (), *, attr: str = "owner") -> None:
        self.attr = attr
        self._held: dict[str, dict[str, Any]] = {}
        for row in rows:
            owner = getattr(row, attr)
            if owner:
                self._held.setdefault(owner, {})[row.name] = row

    def set_owner(self, row: Any, owner: str) -> str:
        """Give ``row`` to ``owner`` ('' = nobody); returns the previous owner."""
        previous = getattr(row, self.attr)
        if previous:
            self._held.get(previous, {}).pop(row.name, None)
        setattr(row, self.attr, owner)
        if owner:
            self._held.setdefault(owner, {})[row.name] = row
        return previous

    def of(self, owner: str) -> list[str]:
        return list(self._held.get(owner, ()))

    def rows(self, owner: str) -> list[Any]:
        """The rows ``owner`` holds, in the order taken (as :meth:`of` names them)."""
        return list(self._held.get(owner, {}).values())

    def count(self, owner: str) -> int:
        return len(self._held.get(owner, ()))

    def holds(self, owner: str, name: str) -> bool:
        return name in self._held.get(owner, ())

"""Who holds what: each owner's holdings (provinces, territories...) kept in step with the
rows' owner fields, so counts and lists never need a scan of the map."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Holdings:
    """owner -> the names of the rows it holds, in the order they were taken."""

    def __init__(self, rows: Iterable[Any] = (), *, attr: str = "owner") -> None:
        self.attr = attr
        self._held: dict[str, dict[str, None]] = {}
        for row in rows:
            owner = getattr(row, attr)
            if owner:
                self._held.setdefault(owner, {})[row.name] = None

    def set_owner(self, row: Any, owner: str) -> str:
        """Give ``row`` to ``owner`` ('' = nobody); returns the previous owner."""
        previous = getattr(row, self.attr)
        if previous:
            self._held.get(previous, {}).pop(row.name, None)
        setattr(row, self.attr, owner)
        if owner:
            self._held.setdefault(owner, {})[row.name] = None
        return previous

    def of(self, owner: str) -> list[str]:
        return list(self._held.get(owner, ()))

    def count(self, owner: str) -> int:
        return len(self._held.get(owner, ()))

    def holds(self, owner: str, name: str) -> bool:
        return name in self._held.get(owner, ())

"""Shared pieces of the REST endpoint mixins: query-string helpers, access checks and the
atomic copy-and-replace of a book."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from .errors import _ApiError, _bad
from .identity import ANONYMOUS, Caller
from .model import _Book, _now
from .values import _INPUT_OPTIONS


def _q(query: dict[str, Any], name: str, default: str | None = None) -> Any:
    values = query.get(name)
    return values[-1] if values else default


def _truthy(value: Any) -> bool:
    return str(value).lower() == "true"


def _enum(query: dict[str, Any], name: str, allowed: tuple[str, ...], default: str) -> str:
    value = _q(query, name) or default
    if value not in allowed:
        snake = re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()
        raise _bad(f"Invalid value at '{snake}', \"{value}\"")
    return value


def _required_input_option(query: dict[str, Any]) -> str:
    value = _q(query, "valueInputOption")
    if not value or value == "INPUT_VALUE_OPTION_UNSPECIFIED":
        raise _bad("'valueInputOption' is required but not specified")
    if value not in _INPUT_OPTIONS:
        raise _bad(f"Invalid value at 'value_input_option', \"{value}\"")
    return value


class _ApiBase:
    """Base of the endpoint mixins; the state is set up by ``FakeSheetsServer.__init__``."""

    _lock: threading.RLock
    _books: dict[str, _Book]
    _denied: set[str]

    def _caller(self) -> Caller | None:  # pragma: no cover - FakeSheetsServer's
        raise NotImplementedError

    def _access(self, spreadsheet_id: str) -> _Book:
        book = self._books.get(spreadsheet_id)
        if book is None:
            raise _ApiError(404, "Requested entity was not found.")
        if spreadsheet_id in self._denied or not book.may_open(self._caller()):
            raise _ApiError(403, "The caller does not have permission")
        return book

    def _mutate(self, spreadsheet_id: str, change: Callable[[_Book], Any]) -> Any:
        """Apply ``change`` to a copy of the book; keep the copy only if it succeeds."""
        with self._lock:
            book = self._access(spreadsheet_id)
            work = book.clone()
            work.acting = self._caller() or ANONYMOUS
            try:
                result = change(work)
            finally:
                work.acting = None
            work.modified = _now()
            self._books[spreadsheet_id] = work
            return result

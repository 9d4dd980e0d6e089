"""The ``--json`` documents of ``check``, ``resolve`` and ``rules``, for scripts and bots.

Their shape is documented in the README ("Output for scripts"); ``SCHEMA`` goes up by one
whenever a key changes meaning or goes away (new keys may appear without it).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path
from typing import Any

from sheetmaster.kit.changes import CellChange, cell_changes
from sheetmaster.kit.model import WARNING, Status, TurnResult
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import StateError
from sheetmaster.kit.tabs import GM_ORDERS_TAB, ORDERS_TAB

SCHEMA = 1


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2, default=_plain)


def _plain(value: Any) -> Any:
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return str(value)


def _cell(value: Any) -> Any:
    """A cell value as JSON: blank is null, whole floats are integers."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def turn_document(command: str, game: str, ruleset: Ruleset, result: TurnResult, *,
                  dry_run: bool, written: bool, report: Path | None = None,
                  practice: bool = False) -> dict[str, Any]:
    """What ``check --json`` and ``resolve --json`` print, of ``result`` as anyone may see
    it (:meth:`TurnResult.public`: no secret order)."""
    counts = {status.value: 0 for status in Status if status is not Status.PRIVATE}
    for r in result.results:
        counts[r.status.value] += 1
    document: dict[str, Any] = {
        "schema": SCHEMA,
        "command": command,
        "game": game,
        "ruleset": ruleset.name,
        "turn": result.turn,
        "dry_run": dry_run,
        "written": written,
        # "row" stays the number scripts read (negative for the GM orders tab: -2 is its
        # row 2); "tab" names the tab
        "orders": [{"row": r.row, "tab": GM_ORDERS_TAB if r.row < 0 else ORDERS_TAB,
                    "player": r.player, "order": r.kind, "status": r.status.value,
                    "reason": r.reason} for r in result.results],
        "counts": {"orders": len(result.results), **counts},
    }
    # what the ruleset warns of, beyond the orders' answers (public lines only)
    document["warnings"] = [{"player": e.player, "text": e.text}
                            for e in result.events if e.kind == WARNING]
    if command == "check":
        return document
    document["seed"] = result.seed
    document["practice_dice"] = practice
    shown = {r.row for r in result.results}
    document["changes"] = [
        {"tab": c.tab, "row": c.row, "key": c.key, "column": c.column,
         "before": _cell(c.before), "after": _cell(c.after)}
        for c in cell_changes(ruleset, result) if _shown(c, shown)]
    document["events"] = [
        {"seq": e.seq, "phase": e.phase, "player": e.player, "kind": e.kind, "text": e.text,
         "sides": e.sides, "value": e.value} for e in result.events]
    document["report"] = str(report) if report else None
    return document


def _shown(change: CellChange, rows: set[int]) -> bool:
    """Whether a changed cell may be shown: an order row's only if its order is (a secret
    order's result cell would say there is one)."""
    if change.tab == ORDERS_TAB:
        return change.row in rows
    if change.tab == GM_ORDERS_TAB:
        return -change.row in rows
    return True


def rules_document(rulesets: dict[str, Ruleset]) -> dict[str, Any]:
    """What ``rules --json`` prints."""
    return {
        "schema": SCHEMA,
        "command": "rules",
        "rulesets": [
            {"name": name, "title": r.title, "version": r.version,
             "phases": [{"key": p.key, "title": p.title} for p in r.phases],
             "order_kinds": [k.name for k in r.order_kinds]}
            for name, r in sorted(rulesets.items())],
    }


def error_document(command: str, code: int, kind: str, message: str,
                   exc: BaseException | None = None) -> dict[str, Any]:
    """What a ``--json`` command prints instead when it fails (exit code ``code``)."""
    error: dict[str, Any] = {"exit": code, "kind": kind, "message": message}
    if isinstance(exc, StateError):
        error["problems"] = [{"tab": p.tab, "row": p.row, "column": p.column,
                              "message": p.message} for p in exc.problems]
    return {"schema": SCHEMA, "command": command, "error": error}

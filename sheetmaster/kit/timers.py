"""Processes that last several turns: timers in the engine-owned Timers tab.

A timer is started by an order (or by the rules), counts turns down, may be paused and
resumed, is cancelled with a refund of what was paid, and completes in a later turn with a
log line citing the order row that started it. The GM reads every process in the Timers tab:
what, whose, started by which order, due when, paid so far. A process with no set length
(an occupation, a canal built by investment) is open-ended: it has no turns left and no due
turn, and lasts until the rules complete or cancel it.

Each resolve first counts every running timer down by one turn; a phase then takes the ones
that are due (``ctx.timers.due(kind)``) and completes them. A turn counts only for a timer that
runs through all of it: one paused during the turn gets that turn's count back (pausing stops
the count at once), and one resumed during the turn counts from the next.

A ruleset may lay its processes' details out in columns of their own (a
:class:`TimerLayout`: 'province', 'unit', ... in place of the generic 'data' cell) and check
each row by its kind when the game is loaded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sheetmaster.kit import values
from sheetmaster.kit.schema import Column, Kind, Problems, Table

RUNNING, PAUSED, DONE, CANCELLED = "running", "paused", "done", "cancelled"
TIMERS_TAB = "Timers"


@dataclass(slots=True)
class Timer:
    id: str
    kind: str
    owner: str
    subject: str
    started: int
    order_row: int
    #: None for an open-ended process (no set length: the rules end it).
    turns_left: int | None
    due_turn: int | None
    paid: Decimal
    status: str
    note: str
    row: int = 0
    #: the generic tab's details, 'key: value; key: value' (no :class:`TimerLayout`).
    data: str = ""
    #: a :class:`TimerLayout`'s details: column -> value (None: the generic 'data' cell).
    cells: dict[str, Any] | None = None

    @property
    def running(self) -> bool:
        return self.status == RUNNING

    @property
    def open_ended(self) -> bool:
        return self.turns_left is None

    @property
    def live(self) -> bool:
        """Running or paused: not yet done or cancelled."""
        return self.status in (RUNNING, PAUSED)

    @property
    def details(self) -> dict[str, Any]:
        """The details as key -> value: a layout's columns, else ``data`` parsed ('target:
        Lyon; intent: annex')."""
        return self.cells if self.cells is not None else parse_data(self.data)

    def origin(self) -> str:
        return (f"started by order row {self.order_row} on turn {self.started}"
                if self.order_row else f"started on turn {self.started}")


TIMERS = Table(
    TIMERS_TAB,
    (
        Column("timer", Kind.NAME, "the process's id (T1, T2...)", owned=True, bind="id"),
        Column("kind", Kind.TEXT, "what sort of process: construction, loan, annexation...",
               owned=True),
        Column("owner", Kind.TEXT, "whose process it is", owned=True),
        Column("subject", Kind.TEXT, "what it is about, e.g. 'Fort in Lyon'", owned=True),
        Column("started on turn", Kind.WHOLE, "the turn it started", owned=True,
               bind="started"),
        Column("order row", Kind.WHOLE, "the Orders row that started it (blank: the rules did)",
               owned=True),
        Column("turns left", Kind.WHOLE, "turns until it is due (a paused one does not count "
               "down; blank: no set length, the rules end it)", owned=True, blank=None),
        Column("due on turn", Kind.WHOLE, "the turn it completes (0 while paused; blank: no "
               "set length)", owned=True, bind="due_turn", blank=None),
        Column("paid", Kind.DECIMAL, "what was paid for it so far (refunds are taken from it)",
               owned=True),
        Column("status", Kind.CHOICE, "running, paused, done or cancelled", owned=True,
               choices=(RUNNING, PAUSED, DONE, CANCELLED), noun="a status"),
        Column("data", Kind.TEXT, "the rules' details, 'key: value; key: value'", owned=True),
        Column("note", Kind.TEXT, "the last thing that happened to it", owned=True),
    ),
    key="timer",
    help="Processes that last several turns (constructions, loans, annexations...), written "
         "by sheetmaster. Edit with care: the rules read them every turn.",
    noun="timer",
    entity=Timer,
)


DATA = "data"


@dataclass(frozen=True)
class TimerLayout:
    """A ruleset's own Timers tab: a column for each detail its processes keep (blank where a
    kind does not use it) in place of the generic 'data' cell, and a check of the live rows.

    ``check(world, timers, problems)`` runs when the game is loaded, after the world is
    built: it reports a row whose kind lacks a column it needs, or names nothing, by tab, row
    and column, so the turn stops before anything is written. ``old_layout`` is said when
    the tab still has the generic 'data' column and lacks these (how to convert it).
    """

    columns: tuple[Column, ...]
    check: Callable[[Any, list[Timer], Problems], None] | None = None
    old_layout: str = ""

    @property
    def table(self) -> Table:
        at = TIMERS.names.index(DATA)
        cols = (*TIMERS.columns[:at], *self.columns, *TIMERS.columns[at + 1:])
        return dataclasses.replace(TIMERS, columns=cols)

    def cells(self, details: Mapping[str, Any]) -> dict[str, Any]:
        """A new timer's cells: each column's detail, None where it has none."""
        names = {c.name for c in self.columns}
        unknown = [k for k in details if k not in names]
        assert not unknown, f"timer details {unknown} have no column in the Timers tab"
        return {c.name: details.get(c.name) for c in self.columns}

    def written(self, rows: list[Timer]) -> dict[str, list[Any]]:
        """The detail columns to write back, one cell a row."""
        return {c.name: [(t.cells or {}).get(c.name) for t in rows] for c in self.columns}


def parse_data(cell: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in cell.split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            out[key.strip()] = value.strip()
    return out


def _left(timer: Timer) -> str:
    if timer.open_ended:
        return "no set end"
    return f"{timer.turns_left} turn{'s' * (timer.turns_left != 1)} left"


def data_text(data: Mapping[str, Any]) -> str:
    return "; ".join(f"{k}: {values.text(v)}" for k, v in data.items())


@dataclass
class Timers:
    """The game's timers, as a phase uses them (``ctx.timers``)."""

    turn: int
    rows: list[Timer]
    emit: Callable[..., None] = field(repr=False, default=lambda *a, **k: None)
    #: the ruleset's own detail columns (None: the generic 'data' cell).
    layout: TimerLayout | None = None
    #: the timers this turn has counted down (a pause this turn gives the count back).
    _counted: set[str] = field(default_factory=set, repr=False)
    #: T1, T2...: the next id, the rows' read once (:class:`values.Numbering`)
    _numbering: values.Numbering = field(default_factory=lambda: values.Numbering("T"),
                                         repr=False)
    #: (kind, key) -> value -> the timers of that kind about it, and how many rows it has
    #: read: :meth:`about` (a timer's kind, subject and data are set at its start)
    _about: dict[tuple[str, str], tuple[dict[str, list[Timer]], int]] = field(
        default_factory=dict, repr=False)
    #: id(timer) -> its place in ``rows`` (rows are only ever added at the end)
    _place: dict[int, int] = field(default_factory=dict, repr=False)

    def count_down(self) -> None:
        """The start of a turn: every running timer started before it is one turn nearer."""
        for timer in self.rows:
            if timer.running and timer.started < self.turn and timer.turns_left:
                timer.turns_left -= 1
                self._counted.add(timer.id)

    def start(self, kind: str, owner: str, subject: str, turns: int | None, *,
              order_row: int = 0, paid: Decimal | int = 0,
              data: Mapping[str, Any] | None = None) -> Timer:
        """A new process, due ``turns`` turns from now; ``turns`` None: open-ended, it lasts
        until the rules complete or cancel it (it is never due)."""
        due = None if turns is None else self.turn + turns
        timer = Timer(self._next_id(), kind, owner, subject, self.turn, order_row, turns,
                      due, Decimal(paid), RUNNING, f"started on turn {self.turn}")
        if self.layout is not None:
            timer.cells = self.layout.cells(data or {})
        else:
            timer.data = data_text(data or {})
        self.rows.append(timer)
        if due is None:
            until = ", with no set end"
        elif turns:
            until = f", due on turn {due}"
        else:
            until = ""  # 0 turns: it waits on something else
        self.emit(owner, "timer started", f"{kind} started: {subject}{until} ({timer.id})")
        return timer

    def find(self, *, kind: str | None = None, owner: str | None = None,
             status: str | None = RUNNING) -> list[Timer]:
        return [t for t in self.rows if (kind is None or t.kind == kind)
                and (owner is None or t.owner == owner) and (status is None or t.status == status)]

    def about(self, kind: str, value: str, *, key: str = "",
              status: str | None = RUNNING) -> list[Timer]:
        """``find(kind=kind, status=status)`` narrowed to the timers about ``value``: whose
        subject it is (``key`` blank), or whose data says ``key: value`` (e.g. a province's
        constructions), in the same order, without reading every timer each time: a turn
        that starts a process for each of thousands of orders stays linear (issue 26.1).
        It reads a timer's subject and data once: for a kind whose subject or data change
        after it starts (decades' uprisings gather provinces), use :meth:`find`."""
        return self._indexed(kind, key or ".subject", value, status)

    def owned(self, kind: str, owner: str, *, status: str | None = RUNNING) -> list[Timer]:
        """``find(kind=kind, owner=owner, status=status)`` from an index (see :meth:`about`;
        a timer's owner is set at its start)."""
        return self._indexed(kind, ".owner", owner, status)

    def _indexed(self, kind: str, key: str, value: str, status: str | None) -> list[Timer]:
        """The timers of ``kind`` whose ``key`` (a data key, or .subject or .owner) is
        ``value``: an index read on from the first row it has not read yet."""
        index, read = self._about.get((kind, key), ({}, 0))
        for place, timer in enumerate(self.rows[read:], read):
            found = None if timer.kind != kind else timer.subject if key == ".subject" else \
                timer.owner if key == ".owner" else timer.details.get(key)
            if found is not None:
                index.setdefault(found, []).append(timer)
                self._place[id(timer)] = place
        self._about[kind, key] = index, len(self.rows)
        return [t for t in index.get(value, ()) if status is None or t.status == status]

    def among(self, kinds: Iterable[str], value: str, *, keys: Iterable[str] = ("",),
              status: str | None = RUNNING) -> list[Timer]:
        """:meth:`about` for several kinds and keys at once: each timer once, in the rows'
        order (as ``find`` and a test of each timer would give them)."""
        found = {id(t): t for kind in kinds for key in keys
                 for t in self.about(kind, value, key=key, status=status)}
        return sorted(found.values(), key=lambda t: self._place[id(t)])

    def due(self, kind: str | None = None) -> list[Timer]:
        """Running timers whose time has come, oldest first (never an open-ended one)."""
        return [t for t in self.find(kind=kind) if t.turns_left == 0]

    def complete(self, timer: Timer, text: str) -> None:
        timer.status, timer.note = DONE, f"done on turn {self.turn}"
        self.emit(timer.owner, "timer done", f"{text} ({timer.kind} {timer.id}, "
                                             f"{timer.origin()})")

    def pause(self, timer: Timer, why: str) -> None:
        """Stop the count from this turn on: a turn it is paused in does not count."""
        if timer.running:
            if timer.id in self._counted and timer.turns_left is not None:
                timer.turns_left += 1
                self._counted.discard(timer.id)
            timer.status, timer.note = PAUSED, f"paused on turn {self.turn}: {why}"
            self.emit(timer.owner, "timer paused", f"{timer.subject} paused: {why}, "
                                                   f"{_left(timer)} ({timer.id})")

    def resume(self, timer: Timer, why: str) -> None:
        if timer.status == PAUSED:
            timer.status, timer.note = RUNNING, f"resumed on turn {self.turn}: {why}"
            self.emit(timer.owner, "timer resumed", f"{timer.subject} resumed: {why}, "
                                                    f"{_left(timer)} ({timer.id})")

    def pay(self, timer: Timer, amount: Decimal | int) -> None:
        """Record a further payment (an instalment) toward the process."""
        timer.paid += Decimal(amount)

    def cancel(self, timer: Timer, why: str, refund_share: Decimal | int = 0, *,
               refund: Decimal | int | None = None) -> Decimal:
        """Stop the process; returns the refund (``refund_share`` of what was paid, or the
        ``refund`` the rules worked out, e.g. half rounded down), which the rules give back
        to its owner."""
        refund = timer.paid * Decimal(refund_share) if refund is None else Decimal(refund)
        timer.status, timer.note = CANCELLED, f"cancelled on turn {self.turn}: {why}"
        self.emit(timer.owner, "timer cancelled",
                  f"{timer.subject} cancelled: {why}; refund {values.number_cell(refund)} of "
                  f"{values.number_cell(timer.paid)} paid ({timer.id}, {timer.origin()})")
        return refund

    def finish(self) -> list[Timer]:
        """The rows to write back, due turns brought up to date (0 while paused, blank for an
        open-ended process)."""
        for timer in self.rows:
            if timer.open_ended:
                timer.due_turn = None
            elif timer.running:
                timer.due_turn = self.turn + timer.turns_left
            elif timer.status == PAUSED:
                timer.due_turn = 0
        return self.rows

    def _next_id(self) -> str:
        return self._numbering.next(t.id for t in self.rows)

"""Decisions owed across turns: a question a player or the GM must answer by a turn, with a
declared default taken when nobody answers (engine-owned Decisions tab).

The rules owe a decision (``ctx.decisions.owe``); the player answers it with an ``answer``
order naming the decision and one of its options (the GM in the GM's orders tab), or, for a
decision owed with ``several=True`` (which provinces to take), several of its options
separated by commas; on the due turn the rules take it (``ctx.decisions.take``), answered or
defaulted, each logged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sheetmaster.kit import values
from sheetmaster.kit.model import Order, Status
from sheetmaster.kit.orders import Field, OrderKind
from sheetmaster.kit.schema import Column, Kind, Table


class Resolves(Protocol):
    """What :meth:`Decisions.answer` asks of the phase context: to give an order its outcome."""

    def resolve(self, order: Order, status: Status, reason: str = "") -> None: ...

#: open: waiting for an answer; answered: answered, to be taken on the due turn; done: taken
#: with its answer; defaulted: taken with its default, nobody having answered.
OPEN, ANSWERED, DONE, DEFAULTED = "open", "answered", "done", "defaulted"
GM = "GM"
DECISIONS_TAB = "Decisions"
ANSWER = "answer"


@dataclass(slots=True)
class Decision:
    id: str
    kind: str
    owed_by: str
    question: str
    options: tuple[str, ...]
    default: str
    due_turn: int
    answer: str
    status: str
    data: str
    #: the answer may name several options (comma-separated).
    several: bool
    row: int = 0

    @property
    def choice(self) -> str:
        """The answer given, or the default once nobody answered."""
        return self.answer or self.default

    @property
    def choices(self) -> tuple[str, ...]:
        """The options chosen, in the order given (one, unless ``several``)."""
        return tuple(values.name_list(self.choice)) if self.several else (self.choice,)


DECISIONS = Table(
    DECISIONS_TAB,
    (
        Column("decision", Kind.NAME, "its id (D1, D2...), named by an 'answer' order",
               owned=True, bind="id"),
        Column("kind", Kind.TEXT, "what sort of decision", owned=True),
        Column("owed by", Kind.TEXT, "the player who must answer, or GM", owned=True),
        Column("question", Kind.TEXT, "what is asked", owned=True),
        Column("options", Kind.NAMES, "the answers allowed", owned=True),
        Column("default", Kind.TEXT, "what is taken if nobody answers by the due turn",
               owned=True),
        Column("due on turn", Kind.WHOLE, "the turn it is taken", owned=True, bind="due_turn"),
        Column("answer", Kind.TEXT, "the answer given (written by sheetmaster)", owned=True),
        Column("status", Kind.CHOICE, "open, answered, done or defaulted", owned=True,
               choices=(OPEN, ANSWERED, DONE, DEFAULTED), noun="a status"),
        Column("data", Kind.TEXT, "the rules' details", owned=True),
        Column("several", Kind.FLAG, "yes: the answer may name several options, "
               "comma-separated", owned=True, optional=True),
    ),
    key="decision",
    help="Decisions owed across turns, written by sheetmaster. Answer one with an 'answer' "
         "order naming it.",
    noun="decision",
    entity=Decision,
)

ANSWER_KIND = OrderKind(
    ANSWER, (Field("decision"), Field("answer")),
    "Answer a decision you owe (see the Decisions tab): its id and one of its options.",
    {"player": "Avalon", "decision": "D1", "answer": "Monarchy"},
)
ANSWER_COLUMNS = (Column("decision", Kind.RAW, "the decision an 'answer' order answers"),
                  Column("answer", Kind.RAW, "the answer: one of the decision's options"))


@dataclass
class Decisions:
    """The game's decisions, as a phase uses them (``ctx.decisions``)."""

    turn: int
    rows: list[Decision]
    emit: Callable[..., None] = field(repr=False, default=lambda *a, **k: None)
    #: D1, D2...: the next id, the rows' read once (:class:`values.Numbering`)
    _numbering: values.Numbering = field(default_factory=lambda: values.Numbering("D"),
                                         repr=False)
    #: each id folded -> its first row, and how many rows that has read (:meth:`_by_id`)
    _ids: dict[str, Decision] = field(default_factory=dict, repr=False)
    _ids_read: int = field(default=0, repr=False)

    def owe(self, owed_by: str, kind: str, question: str, options: Sequence[str], default: str,
            *, due_turn: int | None = None, data: str = "", several: bool = False) -> Decision:
        """A question ``owed_by`` (a player, or GM) answers by ``due_turn`` (next turn).
        ``several``: the answer (and the default) may name several options, comma-separated."""
        defaults = values.name_list(default) if several else [default]
        if not defaults or any(d not in options for d in defaults):
            raise ValueError(f"default {default!r} is not one of {list(options)}")
        decision = Decision(self._next_id(), kind, owed_by, question, tuple(options), default,
                            self.turn + 1 if due_turn is None else due_turn, "", OPEN, data,
                            several)
        self.rows.append(decision)
        how = "one or several, comma-separated" if several else "one"
        self.emit(owed_by if owed_by != GM else "", "decision owed",
                  f"{owed_by} owes a decision ({decision.id}): {question} Options ({how}): "
                  f"{', '.join(options)}; if no answer by turn {decision.due_turn}: {default}")
        return decision

    def answer(self, ctx: Resolves, order: Order) -> None:
        """An 'answer' order: the decision must be open and owed by whoever answers."""
        decision = self._by_id(order.fields["decision"])
        who = GM if order.from_gm else order.player
        if decision is None or decision.status != OPEN:
            ctx.resolve(order, Status.REJECTED, f"there is no open decision "
                        f"{values.show(order.fields['decision'])}")
            return
        if values.fold(decision.owed_by) != values.fold(who):
            ctx.resolve(order, Status.REJECTED, f"decision {decision.id} is {decision.owed_by}'s "
                                                f"to make")
            return
        given = values.name_list(order.fields["answer"]) if decision.several else \
            [order.fields["answer"]]
        chosen = [next((o for o in decision.options if values.fold(o) == values.fold(g)), None)
                  for g in given]
        if not chosen or None in chosen:
            how = "one or several (comma-separated)" if decision.several else "one"
            ctx.resolve(order, Status.REJECTED,
                        f"answer {how} of: {', '.join(decision.options)}")
            return
        decision.answer, decision.status = ", ".join(dict.fromkeys(chosen)), ANSWERED
        ctx.resolve(order, Status.APPLIED, f"decision {decision.id}: {decision.answer}")

    def _by_id(self, text: str) -> Decision | None:
        """The first row whose id folds as ``text`` does, from an index read on from the first
        row it has not read (issue 26.1: not a scan of every row for each answer; a row's id
        is set when it is owed)."""
        for d in self.rows[self._ids_read:]:
            self._ids.setdefault(values.fold(d.id), d)
        self._ids_read = len(self.rows)
        return self._ids.get(values.fold(text))

    def take(self, kind: str) -> list[Decision]:
        """The decisions of ``kind`` due by now: answered, or defaulted now (logged)."""
        out = []
        for d in self.rows:
            if d.kind != kind or d.due_turn > self.turn or d.status not in (OPEN, ANSWERED):
                continue
            if d.status == OPEN:
                d.status = DEFAULTED
                self.emit(d.owed_by if d.owed_by != GM else "", "decision defaulted",
                          f"no answer to {d.id} ({d.question}); the default is taken: "
                          f"{d.default}")
            else:
                d.status = DONE
            out.append(d)
        return out

    def open(self, owed_by: str | None = None) -> list[Decision]:
        return [d for d in self.rows if d.status == OPEN
                and (owed_by is None or values.fold(d.owed_by) == values.fold(owed_by))]

    def _next_id(self) -> str:
        return self._numbering.next(d.id for d in self.rows)

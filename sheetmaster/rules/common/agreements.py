"""Two-sided agreements: one player proposes (one row per item, all sharing the agreement's
name), every other party accepts by that name, and the agreement goes through whole or not at
all. Transfers, alliances, cessions and treaties are all this shape.

:func:`collect` reads the proposals and acceptances of a phase; the ruleset then checks and
applies each complete agreement, and :func:`finish` gives every row of it the same outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sheetmaster import values
from sheetmaster.model import Order, Status
from sheetmaster.reasons import Reason
from sheetmaster.ruleset import Context

TAKEN = Reason("DEAL_TAKEN", "deal {deal} was proposed by {proposer}; only the proposer adds "
                             "items to a deal (pick another deal name for a new proposal)")
NO_SUCH = Reason("NO_SUCH_DEAL", "no deal named {deal} was proposed this turn")
NOT_INVOLVED = Reason("NOT_INVOLVED", "you are not part of deal {deal}: only the players who "
                                      "give or receive in a deal may propose or accept it")
NOT_ACCEPTED = Reason("NOT_ACCEPTED", "not accepted by {players}, so nothing moved")


@dataclass(slots=True)
class Agreement:
    name: str
    proposer: str
    #: the proposal's rows, in posting order.
    items: list[Order] = field(default_factory=list)
    accepts: list[Order] = field(default_factory=list)
    #: why the agreement cannot go through before it is even tried ('' if it can).
    broken: str = ""
    #: every party: whoever gives or receives, once all the proposal's rows are read.
    parties: set[str] = field(default_factory=set)

    def missing(self) -> list[str]:
        """The parties, the proposer aside, who have not accepted."""
        accepted = {o.player for o in self.accepts}
        accepted.add(self.proposer)
        return sorted(self.parties - accepted)

    def break_by(self, row: int) -> None:
        self.broken = self.broken or f"row {row} was rejected"


def collect(ctx: Context, propose: str, accept: str, *,
            check_item: Callable[[Order], str],
            parties: Callable[[Order], Iterable[str]]) -> dict[str, Agreement]:
    """This phase's agreements, in the posting order of their first row.

    ``check_item(order)`` says why a proposal row is refused ('' if it is fine); a refused
    row (and a row refused while being read) breaks its whole agreement. ``parties(order)``
    names everyone a row involves. An acceptance must name a proposed agreement its player is
    part of.
    """
    found: dict[str, Agreement] = {}
    proposals = ctx.orders(propose)
    for order, key in zip(proposals, _folded_deals(proposals)):
        agreement = found.get(key)
        if agreement is None:
            agreement = found[key] = Agreement(order.fields["deal"], order.player)
        elif agreement.proposer != order.player:
            ctx.resolve(order, Status.REJECTED, TAKEN.say(
                deal=values.show(agreement.name), proposer=agreement.proposer))
            continue
        why = check_item(order)
        if why:
            ctx.resolve(order, Status.REJECTED, why)
            agreement.break_by(order.row)
        else:
            agreement.items.append(order)
            agreement.parties.update(parties(order))
    for rejected in ctx.rejected_rows(propose):
        agreement = found.get(values.fold(values.text(rejected.record.get("deal"))))
        if agreement is not None and agreement.proposer == rejected.player:
            agreement.break_by(rejected.row)
    acceptances = ctx.orders(accept)
    for order, key in zip(acceptances, _folded_deals(acceptances)):
        agreement = found.get(key)
        if agreement is None:
            ctx.resolve(order, Status.REJECTED, NO_SUCH.say(
                deal=values.show(order.fields["deal"])))
        elif order.player not in agreement.parties:
            ctx.resolve(order, Status.REJECTED, NOT_INVOLVED.say(
                deal=values.show(agreement.name)))
        else:
            agreement.accepts.append(order)
    return found


def _folded_deals(orders: list[Order]) -> list[str]:
    """Each order's deal name as names are compared (:func:`values.fold`), all in one go."""
    return values.fold_all([order.fields["deal"] for order in orders])


def refusal(agreement: Agreement) -> str:
    """Why the agreement cannot go through as proposed and accepted ('' if it can)."""
    if agreement.items and agreement.proposer not in agreement.parties:
        return NOT_INVOLVED.say(deal=values.show(agreement.name))
    if agreement.broken:
        return f"cancelled: {agreement.broken}, and a deal goes through whole or not at all"
    missing = agreement.missing()
    return NOT_ACCEPTED.say(players=", ".join(missing)) if missing else ""


def finish(ctx: Context, agreement: Agreement, status: Status, why: str) -> None:
    """Every row of the agreement gets the same outcome; the proposer's log says it."""
    note = why or f"deal {agreement.name} went through"
    ctx.resolve_all(agreement.items, status, note)
    ctx.resolve_all(agreement.accepts, status, note)
    if agreement.items:
        ctx.emit(agreement.proposer, "deal", note if not why else
                 f"deal {agreement.name}: {why}")

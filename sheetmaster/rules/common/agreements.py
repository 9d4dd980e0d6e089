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
from sheetmaster.model import Status
from sheetmaster.order_batch import OrderBatch
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
    #: the proposal's rows (their places in the proposals' batch), in posting order.
    items: list[int] = field(default_factory=list)
    #: the acceptances' places in their batch.
    accepts: list[int] = field(default_factory=list)
    #: why the agreement cannot go through before it is even tried ('' if it can).
    broken: str = ""
    #: every party: whoever gives or receives, once all the proposal's rows are read.
    parties: set[str] = field(default_factory=set)

    def break_by(self, row: int) -> None:
        self.broken = self.broken or f"row {row} was rejected"


@dataclass
class Deals:
    """A phase's agreements (folded name -> agreement, in the posting order of their first
    row) and the orders they were read from."""

    proposals: OrderBatch
    acceptances: OrderBatch
    found: dict[str, Agreement]

    def missing(self, agreement: Agreement) -> list[str]:
        """The parties, the proposer aside, who have not accepted."""
        players = self.acceptances.players
        accepted = {players[j] for j in agreement.accepts}
        accepted.add(agreement.proposer)
        return sorted(agreement.parties - accepted)


def collect(ctx: Context, propose: str, accept: str, *,
            check_item: Callable[[OrderBatch, int], str],
            parties: Callable[[OrderBatch, int], Iterable[str]]) -> Deals:
    """This phase's agreements, in the posting order of their first row.

    ``check_item(proposals, i)`` says why proposal row ``i`` is refused ('' if it is fine); a
    refused row (and a row refused while being read) breaks its whole agreement.
    ``parties(proposals, i)`` names everyone a row involves. An acceptance must name a
    proposed agreement its player is part of.
    """
    found: dict[str, Agreement] = {}
    proposals, acceptances = ctx.batch(propose), ctx.batch(accept)
    pending = list(proposals.pending("deal"))
    for (i, player, deal), key in zip(pending, _folded(pending)):
        agreement = found.get(key)
        if agreement is None:
            agreement = found[key] = Agreement(deal, player)
        elif agreement.proposer != player:
            proposals.resolve(i, Status.REJECTED, TAKEN.say(
                deal=values.show(agreement.name), proposer=agreement.proposer))
            continue
        why = check_item(proposals, i)
        if why:
            proposals.resolve(i, Status.REJECTED, why)
            agreement.break_by(proposals.rows[i])
        else:
            agreement.items.append(i)
            agreement.parties.update(parties(proposals, i))
    for rejected in ctx.rejected_rows(propose):
        agreement = found.get(values.fold(values.text(rejected.record.get("deal"))))
        if agreement is not None and agreement.proposer == rejected.player:
            agreement.break_by(rejected.row)
    pending = list(acceptances.pending("deal"))
    for (j, player, deal), key in zip(pending, _folded(pending)):
        agreement = found.get(key)
        if agreement is None:
            acceptances.resolve(j, Status.REJECTED, NO_SUCH.say(deal=values.show(deal)))
        elif player not in agreement.parties:
            acceptances.resolve(j, Status.REJECTED, NOT_INVOLVED.say(
                deal=values.show(agreement.name)))
        else:
            agreement.accepts.append(j)
    return Deals(proposals, acceptances, found)


def _folded(pending: list[tuple[int, str, str]]) -> list[str]:
    """Each (index, player, deal) row's deal name as names are compared (:func:`values.fold`),
    all in one go."""
    return values.fold_all([deal for _, _, deal in pending])


def refusal(deals: Deals, agreement: Agreement) -> str:
    """Why the agreement cannot go through as proposed and accepted ('' if it can)."""
    if agreement.items and agreement.proposer not in agreement.parties:
        return NOT_INVOLVED.say(deal=values.show(agreement.name))
    if agreement.broken:
        return f"cancelled: {agreement.broken}, and a deal goes through whole or not at all"
    missing = deals.missing(agreement)
    return NOT_ACCEPTED.say(players=", ".join(missing)) if missing else ""


def finish(ctx: Context, deals: Deals, agreement: Agreement, status: Status, why: str) -> None:
    """Every row of the agreement gets the same outcome; the proposer's log says it."""
    note = why or f"deal {agreement.name} went through"
    deals.proposals.resolve_each(agreement.items, status, note)
    deals.acceptances.resolve_each(agreement.accepts, status, note)
    if agreement.items:
        ctx.emit(agreement.proposer, "deal", note if not why else
                 f"deal {agreement.name}: {why}")

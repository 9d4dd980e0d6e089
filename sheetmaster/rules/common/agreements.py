"""Agreements between players, in two shapes, with one set of reasons:

* a **named deal** (:func:`collect`, :class:`Deals`): one player proposes (one row per item,
  all sharing the deal's name), every other party accepts by that name, and the deal goes
  through whole or not at all (claims' transfers);
* a **two-party offer** (:class:`Offers`): an order names the other party, who answers it the
  same turn with an order of its own (an acceptance, or the same order back); the pair goes
  through together or not at all (Golden Age's loans and trade agreements, decades' cessions,
  alliances and satellites).

For a named deal, :func:`collect` reads the proposals and acceptances of a phase into
:class:`Deals`; the ruleset then checks and applies each complete agreement, and
:meth:`Deals.finish` gives every row of it the same outcome. For offers,
:meth:`Offers.pair_up` matches each offer with its answer; the ruleset applies each pair and
refuses what is left alone with :meth:`Offers.unanswered`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from sheetmaster.kit import Context, Order, OrderBatch, Reason, Status, values

TAKEN = Reason("DEAL_TAKEN", "deal {deal} was proposed by {proposer}; only the proposer adds "
                             "items to a deal (pick another deal name for a new proposal)")
NO_SUCH = Reason("NO_SUCH_DEAL", "no deal named {deal} was proposed this turn")
NOT_INVOLVED = Reason("NOT_INVOLVED", "you are not part of deal {deal}: only the players who "
                                      "give or receive in a deal may propose or accept it")
NOT_ALL_ACCEPTED = Reason("NOT_ALL_ACCEPTED", "not accepted by {players}, so nothing moved")
NOT_ACCEPTED = Reason("NOT_ACCEPTED", "{party} did not {answer} this turn")
NO_OFFER = Reason("NO_OFFER", "no {offer} this turn")
PARTNER_REJECTED = Reason("PARTNER_REJECTED", "{player}'s '{kind}' (order row {row}) was "
                                              "rejected")


class Deals:
    """A phase's agreements, numbered in the posting order of their first row. Deal ``d`` has
    a name (as first typed), a proposer, its proposal's rows and its acceptances (their places
    in the two batches, in posting order), its parties (whoever gives or receives, once all
    its rows are read) and why it cannot go through before it is even tried ('' if it can).

    Kept as columns, one entry per deal: a turn of a million orders has a quarter of a million
    deals."""

    def __init__(self, proposals: OrderBatch, acceptances: OrderBatch) -> None:
        self.proposals, self.acceptances = proposals, acceptances
        self.names: list[str] = []
        self.proposers: list[str] = []
        self.items: list[list[int]] = []
        self.accepts: list[list[int]] = []
        self.parties: list[list[str]] = []
        self.broken: list[str] = []

    def __len__(self) -> int:
        return len(self.names)

    def add(self, name: str, proposer: str) -> int:
        """A new deal; returns its number."""
        self.names.append(name)
        self.proposers.append(proposer)
        self.items.append([])
        self.accepts.append([])
        self.parties.append([])
        self.broken.append("")
        return len(self.names) - 1

    def break_by(self, d: int, row: int) -> None:
        self.broken[d] = self.broken[d] or f"row {row} was rejected"

    def missing(self, d: int) -> list[str]:
        """The parties, the proposer aside, who have not accepted deal ``d``."""
        players, proposer = self.acceptances.players, self.proposers[d]
        accepted = {players[j] for j in self.accepts[d]}
        return sorted([p for p in self.parties[d] if p != proposer and p not in accepted])

    def refusal(self, d: int) -> str:
        """Why deal ``d`` cannot go through as proposed and accepted ('' if it can)."""
        if self.items[d] and self.proposers[d] not in self.parties[d]:
            return NOT_INVOLVED.say(deal=values.show(self.names[d]))
        if self.broken[d]:
            return f"cancelled: {self.broken[d]}, and a deal goes through whole or not at all"
        missing = self.missing(d)
        return NOT_ALL_ACCEPTED.say(players=", ".join(missing)) if missing else ""

    def finish(self, ctx: Context, d: int, status: Status, why: str) -> None:
        """Every row of deal ``d`` gets the same outcome; the proposer's log says it."""
        line = self.close(d, status, why)
        if line:
            ctx.emit(self.proposers[d], "deal", line)

    def close(self, d: int, status: Status, why: str) -> str:
        """:meth:`finish` but for the log: returns the proposer's line ('' when the deal has
        no row left, so nothing to say to the proposer), for a phase gathering its lines."""
        name = self.names[d]
        note = why or f"deal {name} went through"
        self.proposals.resolve_each(self.items[d], status, note)
        self.acceptances.resolve_each(self.accepts[d], status, note)
        return (f"deal {name}: {why}" if why else note) if self.items[d] else ""


def collect(ctx: Context, propose: str, accept: str, *,
            check_item: Callable[[OrderBatch, int], str],
            parties: Callable[[OrderBatch, int], Iterable[str]]) -> Deals:
    """This phase's agreements, in the posting order of their first row.

    ``check_item(proposals, i)`` says why proposal row ``i`` is refused ('' if it is fine); a
    refused row (and a row refused while being read) breaks its whole agreement.
    ``parties(proposals, i)`` names everyone a row involves. An acceptance must name a
    proposed agreement its player is part of.
    """
    proposals, acceptances = ctx.batch(propose), ctx.batch(accept)
    deals = Deals(proposals, acceptances)
    numbers: dict[str, int] = {}  # folded name -> deal
    pending = list(proposals.pending("deal"))
    for (i, player, deal), key in zip(pending, _folded(pending)):
        d = numbers.get(key)
        if d is None:
            d = numbers[key] = deals.add(deal, player)
        elif deals.proposers[d] != player:
            proposals.resolve(i, Status.REJECTED, TAKEN.say(
                deal=values.show(deals.names[d]), proposer=deals.proposers[d]))
            continue
        why = check_item(proposals, i)
        if why:
            proposals.resolve(i, Status.REJECTED, why)
            deals.break_by(d, proposals.rows[i])
            continue
        deals.items[d].append(i)
        involved = deals.parties[d]
        involved += [p for p in parties(proposals, i) if p not in involved]
    for rejected in ctx.rejected_rows(propose):
        d = numbers.get(values.fold(values.text(rejected.record.get("deal"))))
        if d is not None and deals.proposers[d] == rejected.player:
            deals.break_by(d, rejected.row)
    pending = list(acceptances.pending("deal"))
    for (j, player, deal), key in zip(pending, _folded(pending)):
        d = numbers.get(key)
        if d is None:
            acceptances.resolve(j, Status.REJECTED, NO_SUCH.say(deal=values.show(deal)))
        elif player not in deals.parties[d]:
            acceptances.resolve(j, Status.REJECTED, NOT_INVOLVED.say(
                deal=values.show(deals.names[d])))
        else:
            deals.accepts[d].append(j)
    return deals


def _folded(pending: list[tuple[int, str, str]]) -> list[str]:
    """Each (index, player, deal) row's deal name as names are compared (:func:`values.fold`),
    all in one go."""
    return values.fold_all([deal for _, _, deal in pending])


def _together(order: Order) -> Hashable:
    return None


@dataclass(frozen=True)
class Offers:
    """One game's two-party offers.

    ``answer_kinds``: each offering order kind -> the kind that answers it (the same kind for
    a pact both sides declare); ``answers(offer, answer)``: whether ``answer`` answers
    ``offer`` (names it, or its player); ``awaited(offer)``: (the other party, what it did not
    do) for :data:`NOT_ACCEPTED`; ``missing(answer)``: the offer it found none of, for
    :data:`NO_OFFER`; ``key(order)``: only orders with the same key can answer each other (a
    deal's name: pairing stays linear however many offers there are)."""

    answer_kinds: Mapping[str, str]
    answers: Callable[[Order, Order], bool]
    awaited: Callable[[Order], tuple[str, str]]
    missing: Callable[[Order], str]
    key: Callable[[Order], Hashable] = _together

    def pair_up(self, orders: Sequence[Order]) -> dict[int, Order]:
        """row -> the order that answers it (and back): each offer, in posting order, takes
        the earliest order not matched yet that answers it; each order is matched once."""
        groups: dict[Hashable, list[Order]] = {}
        for order in orders:
            groups.setdefault(self.key(order), []).append(order)
        out: dict[int, Order] = {}
        for order in orders:
            kind = self.answer_kinds.get(order.kind)
            if kind is None or order.row in out:
                continue
            for other in groups[self.key(order)]:
                if other is not order and other.row not in out and other.kind == kind and \
                        self.answers(order, other):
                    out[order.row], out[other.row] = other, order
                    break
        return out

    def unanswered(self, order: Order) -> str:
        """Why an order left without its partner is refused: an offer the other party did not
        answer, or an answer to no offer."""
        if order.kind in self.answer_kinds:
            party, answer = self.awaited(order)
            return NOT_ACCEPTED.say(party=party, answer=answer)
        return NO_OFFER.say(offer=self.missing(order))


def partner_rejected(partner: Order) -> str:
    """Why an order whose partner (its offer or answer) was refused is refused too: a pair
    goes through together or not at all."""
    return PARTNER_REJECTED.say(player=partner.player, kind=partner.kind, row=partner.row)

"""Loans, trade agreements and scheduled payments (digest F22).

"Authorize Scheduled Payment: Authorize a scheduled payment, causing the money to be
transferred during turn resolution." A nation offers a loan or a trade agreement; the other
nation accepts it the same turn; the Agreements tab then holds its payment schedule, and each
instalment falls due on a turn and needs the payer's `authorize-payment` that turn ("a
scheduled payment is due this turn and requires authorization"); one not authorized is
missed, and the GM is told.
"""

from __future__ import annotations

from sheetmaster.kit import GM_ONLY, PRIVATE, Context, Order, Status, plural, values
from sheetmaster.rules.common.agreements import Offers

from .. import reasons
from ..orders import ACCEPT, AUTHORIZE, LOAN, TRADE
from ..tables import COMPLETE, OPEN, Agreement
from ..tables import LOAN as LOAN_KIND
from ..tables import TRADE as TRADE_KIND
from ..world import GoldenWorld
from .common import CURRENCY, treasury
from .processes import AGREEMENT

AGREEMENT_RULE = ("Loan Agreement; Trade Agreement (see restrictions on p.16); Authorize "
                  "Scheduled Payment: Authorize a scheduled payment, causing the money to be "
                  "transferred during turn resolution.")


def _no_offer(accept: Order) -> str:
    return f"loan or trade agreement named {values.show(accept.fields['deal'])} was offered " \
           f"to you"


#: A loan or trade agreement is accepted, by its name, by the nation it names.
OFFERS = Offers({LOAN: ACCEPT, TRADE: ACCEPT},
                answers=lambda offer, accept: accept.player == offer.fields["nation"],
                awaited=lambda offer: (offer.fields["nation"], "accept it"),
                missing=_no_offer, key=lambda order: values.fold(order.fields["deal"]))


def agreements(ctx: Context, orders: list[Order]) -> None:
    """Offers and acceptances first (money lent arrives before it can be spent), then the
    instalments that fall due this turn. The first offer of a name is the offer; a later one
    of the same name is refused."""
    offers: dict[str, Order] = {}
    for order in orders:
        if order.kind in (LOAN, TRADE):
            offers.setdefault(values.fold(order.fields["deal"]), order)
    accepts = [o for o in orders if o.kind == ACCEPT]
    partner = OFFERS.pair_up([*offers.values(), *accepts])
    for order in accepts:
        if order.row not in partner:
            ctx.resolve(order, Status.REJECTED, OFFERS.unanswered(order))
    for offer in offers.values():
        _offer(ctx, offer, partner.get(offer.row))
    for order in orders:
        if order.kind in (LOAN, TRADE) and ctx.resolved(order) is None:
            ctx.resolve(order, Status.REJECTED, reasons.DEAL_TAKEN.say(
                deal=values.show(order.fields["deal"])))
    authorized = [o for o in orders if o.kind == AUTHORIZE]
    _instalments(ctx, authorized)


def _offer(ctx: Context, offer: Order, accept: Order | None) -> None:
    world: GoldenWorld = ctx.world
    deal, other = offer.fields["deal"], offer.fields["nation"]
    why = ""
    if other == offer.player:
        why = reasons.SELF_DEAL.say()
    elif world.deal_taken(deal):
        why = reasons.DEAL_TAKEN.say(deal=values.show(deal))
    elif accept is None:
        why = OFFERS.unanswered(offer)
    if why:
        ctx.resolve(offer, Status.REJECTED, why)
        if accept is not None:
            ctx.resolve(accept, Status.REJECTED, why)
        return
    proposer = world.nations[offer.player]
    seasons = offer.fields["seasons"]
    if offer.kind == LOAN:
        amount = offer.fields["amount"]
        why = CURRENCY.shortfall(proposer, amount)
        if why:
            ctx.resolve(offer, Status.REJECTED, why)
            ctx.resolve(accept, Status.REJECTED, why)
            return
        borrower = world.nations[other]
        CURRENCY.take(proposer, amount)
        borrower.currency += amount
        treasury(ctx, proposer, f"lent {amount} to {other} ({deal})")
        treasury(ctx, borrower, f"borrowed {amount} from {proposer.name} ({deal})")
        row = Agreement(deal, LOAN_KIND, other, proposer.name, offer.fields["repay"], seasons,
                        ctx.turn + 1, 0, OPEN, f"loan of {amount}, {seasons} x "
                        f"{offer.fields['repay']}")
    else:
        row = Agreement(deal, TRADE_KIND, proposer.name, other, offer.fields["amount"],
                        seasons, ctx.turn + 1, 0, OPEN,
                        f"trade: {seasons} x {offer.fields['amount']}")
    world.add_agreement(row)
    ctx.timers.start(AGREEMENT, row.payer, f"{row.kind} {deal}", None, order_row=offer.row,
                     data={"agreement": deal})
    text = f"{row.kind} {deal} between {proposer.name} and {other}: {row.payer} pays " \
           f"{row.payee} {row.payment} a season for {plural(seasons, 'season')} from turn "\
           f"{row.next_due}"
    ctx.emit(proposer.name, "agreement", text)
    ctx.resolve(offer, Status.APPLIED, text)
    ctx.resolve(accept, Status.APPLIED, text)


def _instalments(ctx: Context, authorized: list[Order]) -> None:
    world: GoldenWorld = ctx.world
    paid: set[str] = set()
    for order in authorized:
        agreement = world.agreements[order.fields["deal"]]
        why = ""
        if agreement.payer != order.player:
            why = reasons.NOT_PAYER.say(deal=agreement.name, payer=agreement.payer)
        elif agreement.status != OPEN or agreement.next_due != ctx.turn or \
                agreement.name in paid:
            why = reasons.NOT_DUE.say(deal=agreement.name, due=agreement.next_due
                                      if agreement.status == OPEN else "none")
        if why:
            ctx.resolve(order, Status.REJECTED, why)
            continue
        payer, payee = world.nations[agreement.payer], world.nations[agreement.payee]
        why = CURRENCY.shortfall(payer, agreement.payment)
        if why:
            ctx.resolve(order, Status.REJECTED, why)
            continue
        CURRENCY.take(payer, agreement.payment)
        payee.currency += agreement.payment
        paid.add(agreement.name)
        treasury(ctx, payer, f"paid {agreement.payment} to {payee.name} ({agreement.name})")
        treasury(ctx, payee, f"received {agreement.payment} from {payer.name} "
                             f"({agreement.name})")
        ctx.emit(payer.name, "payment", f"International Payment: {payer.name} paid "
                 f"{agreement.payment} to {payee.name} under {agreement.name}")
        ctx.resolve(order, Status.APPLIED, f"paid {agreement.payment} to {payee.name}")
    for agreement in world.agreements.values():
        if agreement.status == OPEN and agreement.next_due == ctx.turn:
            _fall_due(ctx, agreement, agreement.name in paid)
        if agreement.status == OPEN and agreement.next_due == ctx.turn + 1:
            ctx.emit(agreement.payer, "payment due", f"{agreement.payment} to "
                     f"{agreement.payee} under {agreement.name} falls due next turn: it "
                     "requires an authorize-payment order", audience=PRIVATE)


def _fall_due(ctx: Context, agreement: Agreement, paid: bool) -> None:
    if not paid:
        agreement.missed += 1
        ctx.emit(agreement.payer, "payment missed", f"{agreement.payer} did not authorize "
                 f"the {agreement.payment} due to {agreement.payee} under {agreement.name} "
                 f"(missed: {agreement.missed})", audience=GM_ONLY)
        ctx.emit(agreement.payee, "payment missed", f"{agreement.payer} missed a payment "
                 f"of {agreement.payment} under {agreement.name}", audience=PRIVATE)
    agreement.payments_left -= 1
    agreement.next_due += 1
    timer = next((t for t in ctx.timers.find(kind=AGREEMENT)
                  if t.details.get("agreement") == agreement.name), None)
    if timer is not None and paid:
        ctx.timers.pay(timer, agreement.payment)
    if agreement.payments_left <= 0:
        agreement.status = COMPLETE
        done = "Loan Complete" if agreement.kind == LOAN_KIND else "Trade Complete"
        text = f"{done}: {agreement.name} ({plural(agreement.missed, 'payment')} missed)"
        if timer is not None:
            ctx.timers.complete(timer, text)
        else:
            ctx.emit(agreement.payer, "agreement", text)

"""``check``: a turn resolved in memory with practice dice, each order's result told as it
stands now ("ok", "would be rejected" and why), nothing advanced. Players run it before the
deadline to fix their orders in time."""

from __future__ import annotations

from dataclasses import replace

from sheetmaster.dice import PracticeDice
from sheetmaster.engine import orders_private, resolve
from sheetmaster.model import GameState, OrderResult, Status, TurnResult
from sheetmaster.orders import REASON, RESULT
from sheetmaster.ruleset import Ruleset
from sheetmaster.tabs import GM_ORDERS_TAB, ORDERS_TAB

#: What ``check`` writes in the result column instead of the final words.
CHECK_WORDS = {Status.APPLIED: "ok", Status.PARTIAL: "ok, in part",
               Status.REJECTED: "would be rejected",
               Status.BLOCKED: "would be blocked, as orders stand",
               Status.NOT_NEEDED: "not needed, as things stand"}


#: practice dice for ``check``: its outcomes are never shown as if they were the real ones.
PRACTICE_SEED = 0
DEPENDS_ON_DICE = "valid; what it does depends on the dice rolled when the turn is resolved"
MAY_FAIL_ON_DICE = ("valid now, but whether it succeeds depends on the dice rolled when the "
                    "turn is resolved")
FAILS_EITHER_WAY = ("would be rejected whatever the dice; why depends on the dice rolled when "
                    "the turn is resolved")


def check(ruleset: Ruleset, raw: GameState, secret: str | None = None) -> TurnResult:
    """Resolve in memory and report each order as it stands now, without advancing anything.

    The returned ``after`` state differs from ``before`` only in the Orders tab's result and
    reason cells, which say "ok" or why the order would be rejected. Its notes are each
    player's as the game stands before the turn (nothing the turn would draw): the hands a
    ruleset seals open only with the dice ``secret``. The real dice are not known before the
    resolve: an order whose outcome changes when every practice die comes up the other way
    says that it depends on the dice, never what practice dice gave.
    """
    practice = PracticeDice(PRACTICE_SEED)
    result = resolve(ruleset, raw, dice=practice, secret=secret, notes_before=True)
    results = result.results
    if practice.rolled:
        mirrored = {r.row: r for r in resolve(ruleset, raw, dice=PracticeDice(
            PRACTICE_SEED, mirror=practice), secret=secret).results}
        results = [_by_dice(r, mirrored.get(r.row)) for r in results]
    tables = dict(result.before.tables)
    private = orders_private(result.before)  # the orders tab is the GM's alone
    for tab, sign in ((ORDERS_TAB, 1), (GM_ORDERS_TAB, -1)):
        if tab not in tables:
            continue
        orders = tables[tab].copy()
        for col in (RESULT, REASON):
            orders[col] = orders[col].astype(object)
        for r in results:
            if r.row * sign > 0:
                orders.at[r.row * sign, RESULT] = CHECK_WORDS[r.status]
                orders.at[r.row * sign, REASON] = r.reason if private and sign > 0 \
                    else r.public_reason
        tables[tab] = orders
    after = GameState(tables, result.before.meta)
    return TurnResult(ruleset.name, result.turn, 0, result.before, after, results, [],
                      result.notes)


def _by_dice(one: OrderResult, other: OrderResult | None) -> OrderResult:
    """An order's check result, knowing its result with the other practice dice."""
    if other is None or (other.status, other.reason) == (one.status, one.reason):
        return one
    rejected = [r.status is Status.REJECTED for r in (one, other)]
    if all(rejected):
        return replace(one, reason=FAILS_EITHER_WAY)
    return replace(one, status=Status.APPLIED,
                   reason=MAY_FAIL_ON_DICE if any(rejected) else DEPENDS_ON_DICE)


__all__ = ["CHECK_WORDS", "PRACTICE_SEED", "check"]

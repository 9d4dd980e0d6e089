"""``check``: a turn resolved in memory with practice dice, each order's result told as it
stands now ("ok", "would be rejected" and why), nothing advanced. Players run it before the
deadline to fix their orders in time.

A check applies nothing, so nothing a private order would do (a card played from a hand) is
published by it: the answers everyone sees come from a run without any private order, and
each player's own from a run with their own private orders alone. No shared answer, and no
player's, then hangs on another's secret.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from sheetmaster.engine.turn import orders_private, resolve
from sheetmaster.kit.dice import PracticeDice
from sheetmaster.kit.model import WARNING, Event, GameState, OrderResult, Status, TurnResult
from sheetmaster.kit.orders import REASON, RESULT
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.tabs import GM_ORDERS_TAB, ORDERS_TAB

#: What ``check`` writes in the result column instead of the final words.
CHECK_WORDS = {Status.APPLIED: "ok", Status.PARTIAL: "ok, in part",
               Status.REJECTED: "would be rejected",
               Status.BLOCKED: "would be blocked, as orders stand",
               Status.NOT_NEEDED: "not needed, as things stand",
               Status.PRIVATE: "checked: private"}


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
    reason cells, which say "ok" or why the order would be rejected (a private order's say
    only that it is private). Its ``results`` are the GM's (every order as it stands); its
    ``views`` what everyone and each player may know, when some orders are private (see the
    module). Its notes are each player's as the game stands before the turn (nothing the turn
    would draw): the hands a ruleset seals open only with the dice ``secret``. The real dice
    are not known before the resolve: an order whose outcome changes when every practice die
    comes up the other way says that it depends on the dice, never what practice dice gave.
    Its ``events`` are the turn's public warnings alone (:data:`WARNING`), from the run without
    any private order when there are some, so that no warning hangs on a secret.
    """
    result = _answers(ruleset, raw, secret)
    views, shared_events = _views(ruleset, raw, secret, result.results)
    warnings = [e for e in (result.events if shared_events is None else shared_events)
                if e.kind == WARNING and e.public]
    shared = views.get(None) or [r.shown() for r in result.results]
    if orders_private(result.before):  # the orders tab is the GM's alone: every answer
        shared = [r for r in result.results if r.row > 0] + [r for r in shared if r.row < 0]
    tables = dict(result.before.tables)
    for tab, sign in ((ORDERS_TAB, 1), (GM_ORDERS_TAB, -1)):
        if tab not in tables:
            continue
        orders = tables[tab].copy()
        for col in (RESULT, REASON):
            orders[col] = orders[col].astype(object)
        for r in shared:
            if r.row * sign > 0:
                orders.at[r.row * sign, RESULT] = CHECK_WORDS[r.status]
                orders.at[r.row * sign, REASON] = r.reason
        tables[tab] = orders
    after = GameState(tables, result.before.meta)
    return TurnResult(ruleset.name, result.turn, 0, result.before, after, result.results,
                      warnings, result.notes, views)


def _answers(ruleset: Ruleset, raw: GameState, secret: str | None,
             left_out: Collection[int] = ()) -> TurnResult:
    """The turn resolved with practice dice (without the rows ``left_out``), each result as
    a check tells it: one that the dice decide says so."""
    practice = PracticeDice(PRACTICE_SEED)
    result = resolve(ruleset, raw, dice=practice, secret=secret, notes_before=True,
                     left_out=left_out, answers_only=True)
    if practice.rolled:
        mirrored = {r.row: r for r in resolve(ruleset, raw, dice=PracticeDice(
            PRACTICE_SEED, mirror=practice), secret=secret, left_out=left_out,
            answers_only=True).results}
        result.results = [_by_dice(r, mirrored.get(r.row)) for r in result.results]
    return result


def _views(ruleset: Ruleset, raw: GameState, secret: str | None,
           results: list[OrderResult]
           ) -> tuple[dict[str | None, list[OrderResult]], list[Event] | None]:
    """What each reader may know of the check, when some orders are private: everyone, each
    row's answer without any private order (a private one's: that it is private); a player
    with private orders, their own rows' answers with their own private orders alone. A
    public order that follows a private one of its player's may read differently in the two:
    the shared answer cannot tell what the private one would do. Empty when no order is
    private: every reader's answers are then the GM's. With them, the events of the run
    without any private order (None when no order is private)."""
    private = [r for r in results if r.secret]
    if not private:
        return {}, None
    hidden = {r.row for r in private}
    without = _answers(ruleset, raw, secret, hidden)
    shared = {r.row: r for r in without.results}
    views: dict[str | None, list[OrderResult]] = {
        None: [r.shown() if r.secret else shared[r.row] for r in results]}
    for player in dict.fromkeys(r.player for r in private):
        others = {r.row for r in private if r.player != player}
        own = {r.row: r for r in _answers(ruleset, raw, secret, others).results}
        views[player] = [own[r.row] for r in results if r.player == player]
    return views, without.events


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

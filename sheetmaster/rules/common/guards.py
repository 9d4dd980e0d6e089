"""The checks an order starts with, one home for every game: the player giving it may act
now (:meth:`Guards.acting`), the territory it names is the player's own
(:meth:`Guards.own_territory`), the player it names is another one who may be acted on
(:meth:`Guards.other_player`); the fourth, paying, is
:func:`sheetmaster.rules.common.treasury.pay`.

Each guard rejects the order with its reason and returns None, or returns what it checked. A
game declares once, in a :class:`Guards`, where its players and territories are and how it
words a refusal, so every phase asks the same question the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sheetmaster.kit import Context, Order, Reason, Status

SELF = Reason("SELF", "name another {noun}, not {yourself}")


def _anyone(*_: Any) -> str:
    return ""


def _yourself(actor: Any) -> str:
    return "yourself"


@dataclass(frozen=True)
class Guards:
    """One game's order guards.

    ``players``: the world's attribute mapping a player's name to its row ('clans',
    'states'); ``noun``: what a player is called ('clan', 'state'), in :data:`SELF` and as the
    column naming another player; ``not_yours(territory, player)``: the game's reason for a
    territory that is not the player's; ``yourself(actor)``: how :data:`SELF` names the actor
    ('your own', 'Austria itself'; default 'yourself'); ``cannot_act(ctx, order, player)`` and
    ``not_target(player)``: why a player may not give orders now / may not be acted on ('' if
    it may); ``territories`` and ``owner``: the world's attribute mapping names to territories,
    and a territory's field naming its owner."""

    players: str
    noun: str
    not_yours: Callable[[Any, Any], str]
    yourself: Callable[[Any], str] = _yourself
    cannot_act: Callable[[Context, Order, Any], str] = _anyone
    not_target: Callable[[Any], str] = _anyone
    territories: str = "provinces"
    owner: str = "owner"

    def acting(self, ctx: Context, order: Order) -> Any | None:
        """The player giving ``order``, if it may act now."""
        player = getattr(ctx.world, self.players)[order.player]
        return _passed(ctx, order, player, self.cannot_act(ctx, order, player))

    def own_territory(self, ctx: Context, order: Order, player: Any, *,
                      column: str = "province") -> Any | None:
        """The territory the order names in ``column``, if ``player`` owns it."""
        territory = getattr(ctx.world, self.territories)[order.fields[column]]
        why = "" if getattr(territory, self.owner) == player.name else \
            self.not_yours(territory, player)
        return _passed(ctx, order, territory, why)

    def other_player(self, ctx: Context, order: Order, actor: Any, *,
                     column: str = "") -> Any | None:
        """The player the order names in ``column`` (default: the game's noun), if it is
        not ``actor`` and may be acted on."""
        other = getattr(ctx.world, self.players)[order.fields[column or self.noun]]
        why = self.itself(actor) if other is actor else self.not_target(other)
        return _passed(ctx, order, other, why)

    def itself(self, actor: Any) -> str:
        """The :data:`SELF` reason: an order naming its own player where it needs another."""
        return SELF.say(noun=self.noun, yourself=self.yourself(actor))


def _passed(ctx: Context, order: Order, found: Any, why: str) -> Any | None:
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return None
    return found

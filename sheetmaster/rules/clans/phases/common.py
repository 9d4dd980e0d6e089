"""What the clans phases share: the game's order guards and purse (the shared ones, worded
for clans), and granting a tech."""

from __future__ import annotations

from sheetmaster.kit import Context, Order
from sheetmaster.rules.common.guards import Guards
from sheetmaster.rules.common.treasury import Purse

from .. import reasons
from ..tables import Clan, Province
from ..world import ClansWorld


def _cannot_act(ctx: Context, order: Order, clan: Clan) -> str:
    if clan.destroyed:
        return reasons.DESTROYED.say(when=clan.destroyed)
    return "" if clan.started else reasons.NOT_STARTED.say()


def _not_target(clan: Clan) -> str:
    if clan.destroyed:
        return reasons.TARGET_DESTROYED.say(clan=clan.name)
    return "" if clan.started else reasons.TARGET_NOT_STARTED.say(clan=clan.name)


def _not_yours(province: Province, clan: Clan) -> str:
    return reasons.NOT_YOURS.say(province=province.name,
                                 owner=province.owner or "the Independents")


#: A clan acts while it is set up and not destroyed, on a living clan other than itself.
GUARDS = Guards("clans", "clan", yourself=lambda clan: "your own", not_yours=_not_yours,
                cannot_act=_cannot_act, not_target=_not_target)
#: Clans pay in coins.
COINS = Purse("coins")


def grant_tech(world: ClansWorld, clan: Clan, tech: str) -> None:
    """A tech the clan gets whole (an extra, a gift): a project on it ends, points kept."""
    clan.techs.append(tech)
    if clan.researching == tech:
        clan.researching = ""

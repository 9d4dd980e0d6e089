"""The season's economy: taxes, Marketplaces and Mints; then army upkeep and wages."""

from __future__ import annotations

from sheetmaster.kit import Context, plural
from sheetmaster.rules.common.modifiers import add_percent, describe
from sheetmaster.rules.common.upkeep import disband_until_paid

from .. import data
from ..tables import Clan
from ..world import ClansWorld
from .court import advisor_discounts
from .effects import Parts, army_type, discounted, skills, supplied, supply

TAX_RULE = (
    "Each Province pays Taxes; the base Tax of a Province equals 500 Coins per Turn. Your "
    "'capital' Province pays 700 Coins per Turn."
)
MARKET_RULE = (
    "Marketplace provides Coins based on access to Resources it has to Provinces that are "
    "controlled by you. If you're selling multiple Resources of the same kind, the total price "
    "of them is lowered by 10% for each excess resource. Extra Marketplaces do not provide "
    "extra Coins from selling; instead, they lower penalties from excess resources by 10% per "
    "additional Marketplace."
)
MINT_RULE = "Mint (1500 Coins): Produces 100 Coins per each Copper and Silver Resource you control."
UPKEEP_RULE = (
    "Spearmen (CR+0); Recruitment Cost 500 Coins, Upkeep 100 Coins/Season. Archers (CR+2); "
    "Recruitment Cost 1000 Coins, Upkeep 250 Coins/Season. Cavalry (CR+6); Recruitment Cost "
    "1500 Coins, Upkeep 500 Coins/Season."
)
WAGES_RULE = (
    "In a situation that at end of a Turn you cannot pay all your Advisors' wages, 1 of them "
    "will leave your court, with Great Advisors taking priority."
)


def living(world: ClansWorld) -> list[Clan]:
    return [c for c in world.clans.values() if c.alive and c.started]


def collect_income(ctx: Context) -> None:
    world: ClansWorld = ctx.world
    for clan in living(world):
        tax, tax_note = taxes(world, clan)
        market, market_note = marketplaces(world, clan)
        mint, mint_note = mints(world, clan)
        clan.coins += tax + market + mint
        notes = [f"taxes {tax} ({tax_note})"]
        if market_note:
            notes.append(f"Marketplaces {market} ({market_note})")
        if mint_note:
            notes.append(f"Mints {mint} ({mint_note})")
        ctx.emit(clan.name, "income", f"+{tax + market + mint} coins: {'; '.join(notes)}; coins "
                                      f"now {clan.coins}")


def taxes(world: ClansWorld, clan: Clan) -> tuple[int, str]:
    """500 a province, 700 the capital; Bureaucracy +100 each, Administration +100 the
    capital; then Silk +30%, Lacquer +20%, Tea +10%, Copper +10%, Minister of Taxes +10%."""
    provinces = world.count(clan.name)
    capital = world.holdings.holds(clan.name, clan.capital)
    base = data.PROVINCE_TAX * provinces + (data.CAPITAL_TAX - data.PROVINCE_TAX) * capital
    base += 100 * provinces * clan.has("Bureaucracy") + 100 * capital * clan.has("Administration")
    parts: Parts = [(r, pct) for r, pct in (("Silk", 30), ("Lacquer", 20), ("Tea", 10),
                                            ("Copper", 10)) if supplied(world, clan.name, r)]
    if data.MIN_TAXES in skills(world, clan.name):
        parts.append((data.MIN_TAXES, 10))
    pct = sum(p for _, p in parts)
    note = plural(provinces, "province") + (", capital" if capital else "")
    if pct:
        note += f", {base} +{pct}% ({describe(parts)})"
    return add_percent(base, pct), note


def marketplaces(world: ClansWorld, clan: Clan) -> tuple[int, str]:
    """Each resource sells at its price per unit, less 10% per unit beyond the first (the
    second with Trade Law), less 10% per Marketplace beyond the first, never below 0% nor
    above 100%; then Silver +30%, Minister of Trade +10%."""
    markets = sum(p.count(data.MARKETPLACE) for p in world.provinces_of(clan.name))
    if not markets:
        return 0, ""
    free = 2 if clan.has("Trade Law") else 1
    total, notes = 0, []
    for resource, units in sorted(supply(world, clan.name).items()):
        penalty = min(100, max(0, 10 * (units - free) - 10 * (markets - 1)))
        value = add_percent(units * data.PRICES[resource], -penalty)
        total += value
        notes.append(f"{units} {resource} x {data.PRICES[resource]}"
                     + (f" -{penalty}%" if penalty else "") + f" = {value}")
    pct = 30 * supplied(world, clan.name, "Silver") + 10 * (data.MIN_TRADE in
                                                           skills(world, clan.name))
    if pct and total:
        notes.append(f"+{pct}%")
    note = plural(markets, "Marketplace") + ": " + ("; ".join(notes) or "nothing to sell")
    return add_percent(total, pct), note


def mints(world: ClansWorld, clan: Clan) -> tuple[int, str]:
    """100 a unit of Copper and Silver, counted once whatever the number of Mints; Master of
    the Mint +20%."""
    if not any(data.MINT in p.improvements for p in world.provinces_of(clan.name)):
        return 0, ""
    units = supply(world, clan.name)
    metal = units["Copper"] + units["Silver"]
    bonus = 20 if data.MASTER_MINT in skills(world, clan.name) else 0
    note = f"{metal} Copper and Silver x 100" + (f" +{bonus}%" if bonus else "")
    return add_percent(metal * 100, bonus), note


def pay_upkeep_and_wages(ctx: Context) -> None:
    """Armies' upkeep, then advisors' wages. Armies whose upkeep cannot be paid are
    disbanded, the last listed first, until the rest can be paid."""
    world: ClansWorld = ctx.world
    for clan in living(world):
        armies, disbanded, upkeep = disband_until_paid(
            world.armies_of(clan.name), lambda a, c=clan: army_type(c, a.type).upkeep,
            clan.coins)
        for army in disbanded:
            world.remove_army(army, "disbanded: upkeep unpaid")
            ctx.emit(clan.name, "army disbanded", f"{army.name} disbanded: its upkeep cannot "
                                                  f"be paid")
        if upkeep:
            clan.coins -= upkeep
            ctx.emit(clan.name, "upkeep", f"-{upkeep} coins upkeep for "
                                          f"{plural(len(armies), 'army')}; coins now "
                                          f"{clan.coins}")
        _pay_wages(ctx, world, clan)


def _pay_wages(ctx: Context, world: ClansWorld, clan: Clan) -> None:
    """200 a turn (Great Advisors 500), less Tea's and Zen's cuts. If the coins do not cover
    them all, one advisor leaves (a Great one first, the latest to join first), and the rest
    are paid from what there is (never below 0 coins)."""
    court = world.court(clan.name)
    if not court:
        return
    off = advisor_discounts(world, clan)

    def wage(a) -> int:
        return discounted(data.GREAT_WAGE if a.great else data.ADVISOR_WAGE, off)

    wages = sum(wage(a) for a in court)
    if wages > clan.coins:
        leaver = max(court, key=lambda a: (a.great, a.since, court.index(a)))
        world.retire(leaver, "left: wages unpaid")
        court.remove(leaver)
        ctx.emit(clan.name, "advisor leaves", f"the {'Great ' if leaver.great else ''}"
                                              f"{leaver.skill} leaves: "
                                              f"{plural(wages, 'coin')} of wages cannot be paid "
                                              f"from {clan.coins}")
        wages = sum(wage(a) for a in court)
    paid = min(wages, clan.coins)
    clan.coins -= paid
    if court:
        ctx.emit(clan.name, "wages", f"-{paid} coins wages for {plural(len(court), 'advisor')}; "
                                     f"coins now {clan.coins}")

"""What a victor may take (§15): the allowance, contiguity over land (and over water only
without a land border), capitals last, single-province states and satellites at 50%; the
victor's choice as a decision owed to next turn, its default picked here (F72-F76, F63)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from sheetmaster.kit import LAND, SEA, Context, Decision, data_text, parse_data, values

from ..tables import Province, State
from ..world import DecadesWorld
from .economy import ev
from .tech import owe_civilized_government
from .turmoil import fix_capital, settle, world_of

CONQUEST_RULE = (
    "Victory has a 1/10 chance of allowing 100% in conquests (ie, full annexation), 1/10 for "
    "75% or 1/10% for 50%. 1/4 25%, and 1/4 for 10%. If the defeated state is a single "
    "province, then only 50% or higher is required for annexation. Converting them to a "
    "satellite requires only 50% or higher. Percentages are calculated based on the "
    "proportional value of their provinces. Capital provinces (those marked with a black dot) "
    "may not be annexed unless their is no other choice. Annexations must be contiguous. "
    "Annexation over water are not allowed unless the player does not share a land border."
)
COLONIZED_ON_ANNEX_RULE = (
    "Any state held by a tribe which is conquered by a civilized state is considered to be "
    "uncolonized; it has an economic value of only 1 until it is colonized (states with a "
    "value of only 1 are considered to be automatically settled once annexed)."
)
#: F72: the table sums to 8/10 as written; 50% takes the missing share (a d20).
CONQUEST_TABLE = ((100, 2), (75, 2), (50, 6), (25, 5), (10, 5))
CONQUEST = "conquest"
NOTHING = "nothing"
SATELLITE_WORDS = " as satellite"


@dataclass
class Claim:
    """A victor's right over one loser: how much value it may annex, and the loser as it was
    at the war, which the allowance, the capital rule and "a single province" are judged on
    ("the defeated state"; its provinces change hands one by one as they are taken)."""

    loser: str
    allowance: Decimal
    percent: int
    #: at the war: the loser held one province only; its capital; its provinces' values.
    single: bool = False
    capital: str = ""
    province_values: dict[str, int] = field(default_factory=dict)
    taken: Decimal = Decimal(0)

    def worth(self, world: DecadesWorld, province: Province) -> int:
        """The province's value at the war (its value now, if it was not the loser's)."""
        return self.province_values.get(province.name, world.value(province))


def claim_on(world: DecadesWorld, loser: State, allowance: Decimal, percent: int) -> Claim:
    """A claim on ``loser`` as it is now (at the war)."""
    held = world.holdings.of(loser.name)
    return Claim(loser.name, allowance, percent, single=len(held) == 1, capital=loser.capital,
                 province_values={p: world.value(world.provinces[p]) for p in held})


@dataclass(slots=True)
class Reach:
    """What contiguity is judged on while the victor takes provinces (F75, F76): its land
    and what it gained in the war, the loser's land less that, and the borders that count
    (over water too only without a land border between them). One for each pick: a scan of
    the candidates asks it once each, not once a candidate."""

    mine: set[str]
    theirs: set[str]
    kinds: tuple[str, ...]


def reach_of(world: DecadesWorld, winner: State, loser: State, gained: set[str]) -> Reach:
    mine = set(world.holdings.of(winner.name)) | gained
    theirs = set(world.holdings.of(loser.name)) - gained
    return Reach(mine, theirs, (LAND,) if _land_border(world, mine, theirs) else (LAND, SEA))


def why_not(world: DecadesWorld, winner: State, claim: Claim, province: Province,
            continent: str, gained: set[str], reach: Reach | None = None) -> str:
    """Why ``winner`` may not annex ``province`` now ('' if it may): it must still be the
    loser's and border the victor's land; the allowance, the capital and "a single province"
    are the loser's at the war (``claim``). ``reach``: the victor's and the loser's land now,
    if the caller has it."""
    loser = world.states[claim.loser]
    reach = reach or reach_of(world, winner, loser, gained)
    held = reach.theirs
    if province.name not in held:
        return f"{province.name} is not {loser.name}'s"
    if province.continent != continent:
        return f"{province.name} is not on {continent}, where the war was fought"
    single = claim.single and claim.percent >= 50
    worth = claim.worth(world, province)
    if not single and claim.taken + worth > claim.allowance:
        return (f"{province.name} ({worth}) is more than the "
                f"{ev(claim.allowance - claim.taken)} left of the allowance")
    if not contiguous(world, province.name, reach):
        return f"{province.name} does not border {winner.name}'s land"
    if province.name == claim.capital and not single:
        others = [world.provinces[p] for p in held if p != claim.capital]
        if any(not _plain_why_not(world, claim, o, continent, reach) for o in others):
            return f"{province.name} is {loser.name}'s capital, and there is another choice"
    return ""


def _plain_why_not(world: DecadesWorld, claim: Claim, province: Province, continent: str,
                   reach: Reach) -> str:
    """why_not for a province that is not the capital (no recursion)."""
    if province.continent != continent or province.name == claim.capital:
        return "no"
    if claim.taken + claim.worth(world, province) > claim.allowance:
        return "too much"
    return "" if contiguous(world, province.name, reach) else "not contiguous"


def contiguous(world: DecadesWorld, province: str, reach: Reach) -> bool:
    """F75: it borders the victor's land (provinces taken earlier in the war count); F76:
    over water only if the victor shares no land border with the loser."""
    return any(n in reach.mine for n in world.map.neighbours(province, reach.kinds))


def _land_border(world: DecadesWorld, mine: set[str], theirs: set[str]) -> bool:
    return any(n in theirs for p in mine for n in world.map.neighbours(p, [LAND]))


def default_pick(world: DecadesWorld, winner: State, claims: list[Claim],
                 continent: str) -> list[str]:
    """The choice taken if the victor does not answer: the most valuable province that is
    legal, again and again (the first listed on a tie)."""
    picks: list[str] = []
    gained: set[str] = set()
    for claim in claims:
        taken = claim.taken
        loser = world.states[claim.loser]
        ranked = sorted((world.provinces[p] for p in world.holdings.of(loser.name)),
                        key=lambda p: (-claim.worth(world, p), p.row))
        while True:
            reach = reach_of(world, winner, loser, gained)
            found = next((p for p in ranked if p.name not in gained and
                          not why_not(world, winner, claim, p, continent, gained, reach)), None)
            if found is None:
                break
            picks.append(found.name)
            gained.add(found.name)
            claim.taken += claim.worth(world, found)
        claim.taken = taken
    return picks


def owe_conquest(ctx: Context, war_id: str, winner: State, claims: list[Claim],
                 continent: str, satellites: list[str]) -> None:
    """The victor chooses its provinces (or satellites) by next turn; the default is
    :func:`default_pick`."""
    world = world_of(ctx)
    options = [p for c in claims for p in world.holdings.of(c.loser)
               if world.provinces[p].continent == continent]
    options += [f"{s}{SATELLITE_WORDS}" for s in satellites]
    if not options or ctx.decisions is None:
        ctx.emit(winner.name, "conquest", f"{winner.name} has nothing it may take on "
                                          f"{continent}")
        return
    picks = default_pick(world, winner, claims, continent)
    allowances = ", ".join(f"{c.loser}={ev(c.allowance)}" for c in claims)
    ctx.decisions.owe(
        world.owed_by(winner), CONQUEST,
        f"Which provinces does {winner.name} annex after war {war_id} (on {continent}; up to "
        f"{'; '.join(f'{ev(c.allowance)} from {c.loser}' for c in claims)})?",
        [*options, NOTHING], ", ".join(picks) or NOTHING, several=True,
        data=data_text({"war": war_id, "winner": winner.name, "continent": continent,
                        "claims": allowances,
                        "percent": ", ".join(f"{c.loser}={c.percent}" for c in claims),
                        "single": ", ".join(c.loser for c in claims if c.single),
                        "capitals": ", ".join(f"{c.loser}={c.capital}" for c in claims),
                        "values": ", ".join(f"{p}={v}" for c in claims
                                            for p, v in c.province_values.items()
                                            if p in options)}))


def take_conquest(ctx: Context, decision: Decision) -> None:
    """The victor annexes what it chose, in its order: each province must still be the
    loser's and border the victor's land now; the allowance, the capital and "a single
    province" are judged on the loser as it was at the war (the decision's data)."""
    world = world_of(ctx)
    data = parse_data(decision.data)
    winner = world.states.get(data.get("winner", ""))
    if winner is None or not winner.alive:
        return
    percents = dict(_pairs(data.get("percent", "")))
    claims = {loser: _claim_at_war(world, data, loser, Decimal(amount),
                                   int(percents.get(loser, "0")))
              for loser, amount in _pairs(data.get("claims", ""))}
    take_choices(ctx, winner, claims, data.get("continent", ""), f"war {data.get('war', '')}",
                 decision.choices)


def take_choices(ctx: Context, winner: State, claims: dict[str, Claim], continent: str,
                 how: str, choices: list[str],
                 satellites: list[str] | None = None) -> tuple[list[str], list[str]]:
    """Annex (or make satellites of) ``choices`` in their order, each judged as
    :func:`why_not` says; ``satellites``: the losers that may be made satellites (None: the
    choices were checked against the decision's options already). Returns what was taken
    and why each other choice was not."""
    world = world_of(ctx)
    gained: set[str] = set()
    taken: list[str] = []
    refused: list[str] = []
    for choice in choices:
        if values.fold(choice) == NOTHING:
            continue
        if choice.endswith(SATELLITE_WORDS):
            loser = choice[:-len(SATELLITE_WORDS)]
            if satellites is not None and loser not in satellites:
                refused.append(f"{loser} cannot be made a satellite (it takes 50% or more, "
                               f"of a loser that is no one's satellite)")
                continue
            make_satellite(ctx, world.states.get(loser), winner)
            taken.append(choice)
            continue
        province = world.provinces.get(choice)
        claim = claims.get(province.owner) if province is not None else None
        reason = "it is no longer the loser's" if claim is None else \
            why_not(world, winner, claim, province, continent, gained)
        if reason:
            ctx.emit(winner.name, "conquest", f"{winner.name} cannot annex {choice}: {reason}")
            refused.append(f"{choice}: {reason}")
            continue
        claim.taken += claim.worth(world, province)
        gained.add(province.name)
        annex(ctx, winner, province, how)
        taken.append(choice)
    return taken, refused


def _claim_at_war(world: DecadesWorld, data: dict[str, str], loser: str, allowance: Decimal,
                  percent: int) -> Claim:
    """The claim with the loser as the war left it in the data; a decision owed before the
    data kept it is judged on the loser as it is before the first province is taken."""
    state = world.states.get(loser)
    claim = claim_on(world, state, allowance, percent) if state is not None else \
        Claim(loser, allowance, percent)
    if "capitals" in data:
        claim.single = loser in values.name_list(data.get("single", ""))
        claim.capital = dict(_pairs(data["capitals"])).get(loser, "")
        claim.province_values = {p: int(v) for p, v in _pairs(data.get("values", ""))
                                 if v.isdigit()}
    return claim


def _pairs(text: str) -> list[tuple[str, str]]:
    out = []
    for part in text.split(","):
        if "=" in part:
            key, value = part.rsplit("=", 1)
            out.append((key.strip(), value.strip()))
    return out


def make_satellite(ctx: Context, loser: State | None, winner: State) -> None:
    if loser is None or not loser.alive:
        return
    ctx.world.set_overlord(loser, winner.name)
    ctx.emit(winner.name, "satellite", f"{loser.name} becomes a satellite of {winner.name}")


def annex(ctx: Context, winner: State, province: Province, how: str) -> None:
    """The province changes hands; a tribe counts its civilized conquests (§5); a civilized
    victor settles a tribal province of value 1 (§16)."""
    world = world_of(ctx)
    loser = world.states[province.owner]
    world.set_owner(province, winner.name)
    note = ""
    if not world.tribal(winner) and province.unsettled and province.value == 1:
        province.unsettled = False
        note = "; worth only 1, it is settled at once"
    ctx.emit(winner.name, "annexed", f"{winner.name} annexes {province.name} from "
                                     f"{loser.name} ({how}){note}")
    if world.tribal(winner) and not world.tribal(loser):
        winner.conquests += 1
        if winner.conquests >= 3:
            owe_civilized_government(ctx, winner, "3 civilized provinces conquered")
    fix_capital(ctx, loser)
    settle(ctx, winner)
    settle(ctx, loser)


__all__ = ["CONQUEST", "CONQUEST_TABLE", "Claim", "NOTHING", "SATELLITE_WORDS", "annex",
           "claim_on", "owe_conquest", "take_choices", "take_conquest"]

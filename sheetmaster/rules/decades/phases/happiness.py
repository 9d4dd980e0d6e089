"""Step 6: happiness moves semi-randomly (F31), the maximum happiness binds (§6), political
happiness 1 brings a revolution or a civil war (§7), national happiness 0 an independence war
(§7, F40) and religious happiness 0 a religious war (§17)."""

from __future__ import annotations

from fractions import Fraction

from sheetmaster.kit import Context

from ..settings import HAPPINESS_DRIFT, parse_drift
from ..tables import Province, State
from ..world import TOP_HAPPINESS, DecadesWorld, same
from .turmoil import hit, settle

HAPPINESS_RULE = (
    "Happiness is a measure of the satisfaction of the people with the government. It goes from "
    "5 being the happiest to 1 being Revolution. [...] Happiness is divided into political "
    "happiness, national happiness, and religious happiness. Drops in national and religious "
    "happiness trigger an independence war or a religious war depending on which drops to "
    "zero. Happiness is determined semi-randomly, plus happiness hits taken by decision and "
    "events."
)
RELIGIOUS_WAR_RULE = (
    "If a religious minority is in a wrong culture area, then hitting zero for religious "
    "happiness will trigger a national uprising. If the religious minority is from the primary "
    "culture, is greater then 33% but less then 66%, then hitting zero lowers political "
    "happiness by 1 and resets religious happiness to 3. If it is from the primary culture and "
    "greater then 66%, then it will seek to change the state religion. Any others have no "
    "effect."
)
UPRISING = "independence war"
RESET = 3
LOW, HIGH = Fraction(33, 100), Fraction(66, 100)


def move_happiness(ctx: Context) -> None:
    world: DecadesWorld = ctx.world
    civilized = [s for s in world.alive() if not world.tribal(s)]
    if not civilized:
        return
    die = parse_drift(ctx.setting(HAPPINESS_DRIFT))
    for state in civilized:
        if not state.alive:
            continue
        _drift(ctx, state, "political", "happiness", die, 1)
        settle(ctx, state)
        for which, attr, test in (("national", "national", _wrong_culture),
                                  ("religious", "religious", _wrong_religion)):
            if not state.alive:
                break
            if any(test(state, p) for p in world.provinces_of(state)):
                _drift(ctx, state, which, attr, die, 0)
            elif getattr(state, attr) != TOP_HAPPINESS:
                setattr(state, attr, TOP_HAPPINESS)
                ctx.emit(state.name, "happiness", f"{which} happiness back to 5: no province "
                                                  f"of another {_noun(which)}")
        if state.alive and state.national == 0:
            national_uprising(ctx, state)
        if state.alive and state.religious == 0:
            religious_war(ctx, state)


def _noun(which: str) -> str:
    return "culture" if which == "national" else "religion"


def _wrong_culture(state: State, province: Province) -> bool:
    return not same(province.culture, state.culture)


def _wrong_religion(state: State, province: Province) -> bool:
    return not same(province.religion, state.religion)


def _drift(ctx: Context, state: State, which: str, attr: str, die, lowest: int) -> None:
    """F31: each happiness moves by the `happiness drift` die, within its scale."""
    if die is None:
        return
    sides, offset = die
    rolled = ctx.dice.roll(sides, state.name, f"{which} happiness of {state.name} (d{sides}"
                           f"{offset:+d})" if offset else f"{which} happiness of {state.name}",
                           name=f"{which} happiness {state.name}")
    was = getattr(state, attr)
    now = max(lowest, min(TOP_HAPPINESS, was + rolled + offset))
    setattr(state, attr, now)
    if now != was:
        ctx.emit(state.name, "happiness", f"{which} happiness {was} -> {now}")


def national_uprising(ctx: Context, state: State, provinces: list[str] | None = None) -> None:
    """§7: national happiness at 0 starts an independence war of the wrong-culture provinces,
    fought next turn (F40), and is reset to 3; §17 names the provinces of a religious
    minority in a wrong-culture area."""
    world: DecadesWorld = ctx.world
    rebels = provinces if provinces is not None else \
        [p.name for p in world.provinces_of(state) if _wrong_culture(state, p)]
    if provinces is None:
        state.national = RESET
    if not rebels or ctx.timers is None:
        return
    running = next(iter(ctx.timers.owned(UPRISING, state.name)), None)  # issue 26.1: indexed
    if running is not None:
        listed = running.details.get("provinces", "")
        merged = list(dict.fromkeys([*listed.split(", "), *rebels])) if listed else rebels
        running.data = f"provinces: {', '.join(merged)}"
        running.subject = f"the rising of {', '.join(merged)}"
        return
    ctx.timers.start(UPRISING, state.name, f"the rising of {', '.join(rebels)}", 1,
                     data={"provinces": ", ".join(rebels)})
    ctx.emit(state.name, "uprising", f"national uprising in {state.name}: "
                                     f"{', '.join(rebels)} rise; the independence war is "
                                     f"fought next turn")


def religious_war(ctx: Context, state: State) -> None:
    """§17, minority by minority (F83-F87): in a wrong-culture area, a national uprising;
    of the primary culture, over 33% and under 66% of the state's value, political happiness
    -1 and religious happiness 3; 66% or more, the state religion changes (no hits)."""
    world: DecadesWorld = ctx.world
    ctx.emit(state.name, "religious war", f"religious happiness hits 0 in {state.name}")
    minorities = dict.fromkeys(p.religion for p in world.provinces_of(state)
                               if _wrong_religion(state, p))
    outside = [p.name for p in world.provinces_of(state)
               if _wrong_religion(state, p) and _wrong_culture(state, p)]
    if outside:
        national_uprising(ctx, state, outside)
        state.religious = RESET
    shares = {r: world.share(state, lambda p, r=r: same(p.religion, r) and
                             not _wrong_culture(state, p)) for r in minorities}
    for religion, share in sorted(shares.items(), key=lambda item: -item[1]):
        if share >= HIGH:
            ctx.emit(state.name, "religion", f"the {religion} minority ({_pct(share)} of the "
                     f"state) changes the state religion to {religion}")
            state.religion, state.religious = religion, RESET
            settle(ctx, state)
            return
        if LOW < share < HIGH:
            ctx.emit(state.name, "religious war", f"the {religion} minority ({_pct(share)}) "
                                                  f"lowers political happiness by 1")
            state.religious = RESET
            hit(ctx, state, "the religious war", happiness=1)
            return


def _pct(share: Fraction) -> str:
    return f"{float(share) * 100:.0f}%"

"""Income and military strength in exact economic-value points (ev): the formulas of §3, §4,
§5, §8, §9 and §11, with the readings the README gives (F8, F9, F13-F15, F46, F59)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from sheetmaster.kit import plural

from ..tables import Government

INCOME_RULE = (
    "Each state derives income from the territories it controls. The income for a state may "
    "be represented as the sum of all province values multiplied by up to three modifiers "
    "plus government traits. [...] Income does not carry over from turn to turn."
)
MODIFIERS_RULE = (
    "All modifiers cause a 25% decrease in economic power. They are cumulative with each other "
    "but not with stability, so for example if you are operating at 50% economic power then the "
    "25% reduction is to the remainder, not 75%."
)
COLLAPSE_RULE = (
    "For a single province state, falling into one stability incurs a 50% penalty on their "
    "income, which can only be removed by improving stability."
)
MILITARY_RULE = (
    "An economic investment of 10 in the military will normally yield 10 military strength. "
    "[Tribal governments] have a military modifier of x5 (capping at 60). [...] Every "
    "technology they fall back on incurs a 25% penalty to military strength."
)

QUARTER, HALF = Decimal("0.25"), Decimal("0.5")
TRIBAL_FACTOR, TRIBAL_CAP = 5, Decimal(60)


def ev(amount: Decimal | int) -> str:
    """An amount as the sheet shows it: 9.75, 12 (never 12.00)."""
    value = Decimal(amount)
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def income(base: int, *, collapse: bool, modifiers: Sequence[str],
           government: Government) -> tuple[Decimal, str]:
    """(income, how it was reckoned): base x 50% with the collapse penalty, then -25% for each
    modifier, added up (F46: "the 25% reduction is to the remainder" of the stability
    penalty), then the government's trait: its percent of that, plus its bonus (F9)."""
    amount = Decimal(base)
    note = [f"{base} from the provinces"]
    if collapse:
        amount *= HALF
        note.append("x 50% (collapse penalty)")
    if modifiers:
        factor = max(Decimal(0), 1 - QUARTER * len(modifiers))
        amount *= factor
        note.append(f"x {ev(factor * 100)}% ({', '.join(modifiers)}: -25% each)")
    if government.income_percent:
        amount += amount * Decimal(government.income_percent) / 100
        note.append(f"{government.income_percent:+d}% ({government.name})")
    if government.income_bonus:
        amount += government.income_bonus
        note.append(f"{government.income_bonus:+d} ({government.name})")
    amount = max(Decimal(0), amount)
    return amount, " ".join(note) + f" = {ev(amount)}"


def military(invested: Decimal, *, tribal: bool, behind: int,
             government: Government) -> tuple[Decimal, str]:
    """(strength, how): the investment (Tribal: x5, at most 60, F15), -25% per technology
    behind, added up and never below 0 (F59), then the government's military percent (F14)."""
    strength = min(invested * TRIBAL_FACTOR, TRIBAL_CAP) if tribal else invested
    note = [f"{ev(invested)} invested"]
    if tribal:
        note.append(f"x 5 (Tribal, at most 60) = {ev(strength)}")
    if behind:
        factor = max(Decimal(0), 1 - QUARTER * behind)
        strength *= factor
        note.append(f"x {ev(factor * 100)}% ({plural(behind, 'technology')} behind)")
    if government.military_percent:
        strength += strength * Decimal(government.military_percent) / 100
        strength = max(Decimal(0), strength)
        note.append(f"{government.military_percent:+d}% ({government.name})")
    return strength, " ".join(note) + f": military {ev(strength)}"

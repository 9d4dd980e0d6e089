"""What the site charts for each player, taken from what the ruleset declares.

Nothing here names a ruleset. The measures come from three declarations every ruleset makes
for its own reasons:

- **treasury**: the players tab's column that the ruleset calls "gold" (``Ruleset.nouns``:
  coins in clans, currency in goldenage, economic value in decades), when it is a number;
- **land**: rows of the map tab (``MapSpec.tab``) by their owner (``MapSpec.owner``);
- **units**: each tab of units the map draws (``MapSpec.units``), counted by owner, retired
  rows left out and units off the map (at sea) counted too; a ruleset that draws no units
  but keeps a number of them in the players tab (``nouns["armies"]``, e.g. claims' armies)
  has that column charted instead.

A measure a ruleset does not declare is not charted (1800 has no treasury).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pandas as pd

from sheetmaster.kit import values
from sheetmaster.kit.mapspec import Units
from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Kind, Table
from sheetmaster.kit.values import plural_word

_NUMBERS = (Kind.WHOLE, Kind.INTEGER, Kind.DECIMAL)


@dataclass(frozen=True)
class Measure:
    """One chart: ``key`` names it in the site's data, ``title`` is the ruleset's word."""

    key: str
    title: str
    #: where the numbers come from, for the page.
    source: str
    #: a players tab column, or a tab of units, or the map tab (land).
    column: str = ""
    units: Units | None = None


def measures(ruleset: Ruleset) -> list[Measure]:
    """The charts a game of ``ruleset`` has, in the order the site shows them."""
    players = ruleset.players_table()
    out: list[Measure] = []
    treasury = _number_column(players, ruleset.noun("gold"))
    if treasury:
        out.append(Measure("treasury", treasury, f"the {players.tab} tab's '{treasury}' "
                           f"column after each turn", column=treasury))  # type: ignore[union-attr]
    spec = ruleset.map
    if spec is not None:
        noun = plural_word(ruleset.table(spec.tab).row_noun)
        out.append(Measure("land", noun, f"{noun} owned: rows of the {spec.tab} tab by their "
                           f"'{spec.owner}' column"))
        for units in spec.units:
            noun = plural_word(_unit_noun(ruleset, units))
            out.append(Measure(f"units {units.tab}", noun,
                               f"{noun}: rows of the {units.tab} tab by their '{units.owner}' "
                               f"column" + (f", counted by '{units.count}'" if units.count
                                            else ""), units=units))
    if not any(m.units for m in out):
        armies = _number_column(players, ruleset.noun("armies"))
        if armies:
            out.append(Measure("armies", armies, f"the {players.tab} tab's '{armies}' column "
                               f"after each turn", column=armies))  # type: ignore[union-attr]
    return out


def players_of(ruleset: Ruleset, state: GameState) -> list[str]:
    """The players, in the players tab's order."""
    table = ruleset.players_table()
    if table is None or not table.key or table.tab not in state.tables:
        return []
    return [name for name in map(values.text, state.tables[table.tab][table.key].tolist())
            if name]


def numbers(ruleset: Ruleset, state: GameState, measure: Measure) -> dict[str, Any]:
    """Each player's number of ``measure`` in ``state`` (a validated game): int or float."""
    players = players_of(ruleset, state)
    if measure.column:
        table = ruleset.players_table()
        frame = state.tables[table.tab]  # type: ignore[union-attr]
        return {p: _plain(v) for p, v in zip(map(values.text, frame[table.key].tolist()),  # type: ignore[union-attr]
                                             frame[measure.column].tolist()) if p}
    counts = dict.fromkeys(players, 0)
    names = values.Names(players)
    if measure.units is None:
        spec = ruleset.map
        for owner in state.tables[spec.tab][spec.owner].tolist():  # type: ignore[union-attr]
            _add(counts, names, owner, 1)
        return counts
    units = measure.units
    frame = state.tables[units.tab]
    live = ~_retired(ruleset.table(units.tab), frame)
    how_many = frame[units.count].tolist() if units.count else [1] * len(frame)
    for owner, count, alive in zip(frame[units.owner].tolist(), how_many, live.tolist()):
        if alive:
            _add(counts, names, owner, _plain(count) or 0)
    return counts


def _add(counts: dict[str, Any], names: values.Names, owner: Any, count: Any) -> None:
    found = names.get(values.text(owner)) if values.text(owner) else None
    if found is not None:
        counts[found] += count


def _retired(table: Table, frame: pd.DataFrame) -> pd.Series:
    """Each row: whether its Table declares it retired (status 'gone (...)')."""
    if not table.retired or table.retired[0] not in frame.columns:
        return pd.Series(False, index=frame.index)
    column, word = table.retired
    return frame[column].map(
        lambda c: values.fold(values.text(c)).startswith(values.fold(word))).astype(bool)


def _number_column(table: Table | None, name: str) -> str:
    """``name`` if ``table`` declares a column of that name holding a number, else ''."""
    if table is None:
        return ""
    found = next((c for c in table.columns if c.name == name and c.kind in _NUMBERS), None)
    return found.name if found else ""


def _unit_noun(ruleset: Ruleset, units: Units) -> str:
    """'army' for a tab of armies; 'regiment' for a column of the map tab naming its owner."""
    if values.fold(units.tab) == values.fold(ruleset.map.tab):  # type: ignore[union-attr]
        return units.owner
    table = ruleset.table(units.tab)
    return table.noun or units.tab.rstrip("s").casefold()


def _plain(value: Any) -> int | float | None:
    """A cell's number as JSON writes it: whole numbers as ints, others as floats."""
    if value is None or (isinstance(value, float) and value != value) or value == "":
        return None
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, (int, float)) else None

"""Valid games for the fuzzer: a ruleset's own generator (:data:`GAMES`) or its example,
dressed the way real sheets are.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from sheetmaster.engine.builder import build_state, example_game
from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.tabs import GAME_TAB, ORDERS_TAB
from testkit.fuzzing.choosers import Chooser

# -- games ----------------------------------------------------------------------------------


@dataclass
class GameSpec:
    """A generated game before the trimmings common to every ruleset."""

    tables: dict[str, list[dict[str, Any]]]
    settings: dict[str, Any] = field(default_factory=dict)
    turn: int = 1


def example_or_blank_game(ruleset: Ruleset, ch: Chooser) -> GameSpec:
    """The fallback game of a ruleset that registers no generator."""
    if ruleset.example is None:
        return GameSpec({})
    tables, _, settings = example_game(ruleset)
    return GameSpec(tables, dict(settings), turn=ch.integer(1, 3))


#: the dice secret a fuzzed game is read and resolved with when no other is given (it keys
#: what a ruleset seals, such as 1800's hands: a run without a secret cannot open them).
SECRET = "fuzzed game dice secret"
#: ruleset name -> a generator of valid games of that ruleset.
GAMES: dict[str, Callable[[Chooser], GameSpec]] = {}


def build_game(ruleset: Ruleset, ch: Chooser, *, dressed: bool = True) -> GameState:
    """A valid game of ``ruleset``; ``dressed``, the way real sheets are: header case, GM
    columns and tabs, an e-mail column, a deadline and timestamps, a renamed Orders tab, a
    GM's copy of a tab (tab names are matched exactly: one spelled otherwise, or a look-alike,
    is a damage, see :mod:`.damage`)."""
    spec = GAMES.get(ruleset.name, lambda c: example_or_blank_game(ruleset, c))(ch)
    settings = dict(spec.settings)
    settings.setdefault("seed", "".join(ch.choice(string.hexdigits) for _ in range(8)))
    if dressed and ch.chance(30):
        settings["deadline"] = f"2026-0{ch.integer(1, 9)}-1{ch.integer(0, 9)} 23:59"
        settings["timezone"] = ch.choice(("UTC", "Europe/Paris", "America/New_York",
                                          "Asia/Kolkata", ""))
        if ch.chance(70):
            settings["turn length (hours)"] = ch.choice((24, 48, 168, "24"))
    state = build_state(ruleset, spec.tables, (), turn=spec.turn, settings=settings)
    if not dressed:
        return state
    tables = dict(state.tables)
    orders = tables[ORDERS_TAB]
    emails = {row.get("player"): row.get("email") for rows in spec.tables.values()
              for row in rows if row.get("email")}
    if emails:
        orders["email"] = pd.Series(dtype=object)
    if settings.get("deadline"):
        orders["timestamp"] = pd.Series(dtype=object)
    if ch.chance(20):
        orders["comment"] = pd.Series(dtype=object)  # the GM's own column
    if ch.chance(10):
        tables["Form Responses 1"] = tables.pop(ORDERS_TAB)
        game = tables[GAME_TAB]
        game.loc[game.index[game["setting"] == "orders tab"], "value"] = "Form Responses 1"
    # the GM's extra columns and tabs, header spellings, a copy of a tab
    if ch.chance(30):
        tab = ch.choice([t.tab for t in ruleset.tables])
        df = tables[tab]
        df["GM notes"] = [ch.choice(("", "watch this one", 3, None)) for _ in range(len(df))]
    if ch.chance(20):
        tables["Map notes"] = pd.DataFrame({"note": ["the GM's own tab"]}, index=[2])
    for _ in range(ch.integer(0, 2)):
        tab = ch.choice(list(tables))
        df = tables[tab]
        if len(df.columns):
            column = ch.choice(list(df.columns))
            header = ("Email Address" if column == "email" and ch.chance(50) else
                      ch.choice((column.upper(), column.title(), f" {column} ")))
            tables[tab] = df.rename(columns={column: header})
    if ch.chance(15):  # a GM's copy of a tab, under a name of its own (never a look-alike)
        tab = ch.choice([t.tab for t in ruleset.tables])
        tables[f"{tab} (GM copy)"] = tables[tab].copy()
    return GameState(tables, {})

"""Build a game state from plain rows: for golden turns, unit tests, synthetic games and a
ruleset's example game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from sheetmaster.kit import values
from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.tabs import GAME_TAB, ORDERS_TAB, SETTINGS, all_tables, calendar_settings


def table_frame(columns: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """A table whose index is the sheet row number (first data row is row 2)."""
    extra = [k for r in rows for k in r if k not in columns]
    cols = list(columns) + list(dict.fromkeys(extra))
    data = {c: [r.get(c) for r in rows] for c in cols}
    return pd.DataFrame(data, index=range(2, 2 + len(rows)), dtype=object)


def build_state(ruleset: Ruleset, tables: Mapping[str, Sequence[Mapping[str, Any]]],
                orders: Sequence[Mapping[str, Any]] = (), *, turn: int | None = None,
                settings: Mapping[str, Any] | None = None) -> GameState:
    """A game of ``ruleset`` with the given rows; tabs not given are empty. ``turn``
    defaults to a new game's first turn."""
    helps = {**SETTINGS, **ruleset.setting_rows()}
    game = {key: default for key, (default, _) in helps.items()}
    game.update({"ruleset": ruleset.name, "game": "test",
                 "turn": ruleset.first_turn if turn is None else turn})
    game.update(settings or {})
    game.update(calendar_settings(ruleset, int(game["turn"]), game))
    game_rows = [{"setting": k, "value": v, "help": helps.get(k, ("", ""))[1]}
                 for k, v in game.items()]
    given = dict(tables)
    given["Orders"] = list(orders)
    given[GAME_TAB] = game_rows
    frames = {}
    for table in all_tables(ruleset):
        columns = [c.name for c in table.columns if not c.optional or any(
            c.name in r for r in given.get(table.tab, ()))]
        frames[table.tab] = table_frame(columns, given.get(table.tab, ()))
    return GameState(frames, {})


def example_game(ruleset: Ruleset) -> tuple[dict[str, list[dict[str, Any]]], list[dict], dict]:
    """The ruleset's example game as (tables, orders, settings): its ``example`` as declared,
    or, for an example laid out before its setup turn, that turn resolved with the example's
    public dice secret (its settings' 'seed') and then its first turn's orders and settings
    (:attr:`~sheetmaster.kit.ruleset.Ruleset.example_after_setup`)."""
    if ruleset.example is None:
        raise ValueError(f"the {ruleset.name} ruleset has no example game")
    tables, orders, settings = ruleset.example()
    if ruleset.example_after_setup is None:
        return tables, orders, settings
    from sheetmaster.engine.turn import resolve  # the engine's turn, which builds on this

    settings = dict(settings)
    secret = values.text(settings.pop("seed", ""))
    setup = resolve(ruleset, build_state(ruleset, tables, orders, turn=0, settings=settings),
                    secret=secret)
    after = {tab: [{k: v for k, v in record.items() if not values.is_blank(v)}
                   for record in df.to_dict("records")]
             for tab, df in setup.after.tables.items() if tab not in (GAME_TAB, ORDERS_TAB)}
    first_orders, first = ruleset.example_after_setup(after)
    return after, first_orders, {**settings, "seed": secret, **first}

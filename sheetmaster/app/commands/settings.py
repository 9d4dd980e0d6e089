"""settings: a game's settings as a GM enters it, and another game's copied into the blanks
(see :mod:`sheetmaster.app.game_settings`)."""

from __future__ import annotations

import argparse
from typing import Any

from sheetmaster.app.exits import Exit, UsageError


def cmd_settings(args: argparse.Namespace) -> int:
    from sheetmaster.app import game_settings as gs
    from sheetmaster.app.console import print_table
    from sheetmaster.app.runs import ruleset_of
    from sheetmaster.engine.turn import prepare
    from sheetmaster.kit.model import TurnResult
    from sheetmaster.stores.xlsx import XlsxStore

    store = XlsxStore(args.file)
    with store.locked():
        raw = store.load()
        ruleset = ruleset_of(raw)
        state = prepare(ruleset, raw).state
        if args.source:
            other = XlsxStore(args.source).load()
            if ruleset_of(other).name != ruleset.name:
                raise UsageError(f"{args.source} plays by '{ruleset_of(other).name}', not "
                                 f"'{ruleset.name}': its settings are another game's")
            after, filled = gs.fill_blanks(ruleset, state, prepare(ruleset, other).state)
            for cell in filled:
                print(f"{cell.tab}: {cell.key}, {cell.column} = {gs.shown(cell.value)}")
            if filled and not args.dry_run:
                store.save(gs.writable(ruleset), TurnResult(ruleset.name, state.turn, 0, state,
                                                            after, [], []), backup=False)
            verb = "would fill" if args.dry_run else "filled"
            print(f"{verb} {len(filled)} blank cell{'s' * (len(filled) != 1)} from "
                  f"{args.source}")
            state = after
    print_table(f"{ruleset.name} settings of {args.file}", ["setting", "status", "value", "help"],
                [(s.name, s.status, s.value, s.help) for s in gs.settings_status(ruleset, state)],
                styles={"blank": "bold"})
    for tab in gs.tabs_status(ruleset, state):
        blanks = ", ".join(f"{column} {n}" for column, n in tab.blanks.items()) or "none"
        print(f"tab {tab.tab}: {tab.rows} rows; blank cells: {blanks}")
    return Exit.OK


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "settings", parents=[common],
        help="show a game's settings, and fill the blank ones from another game",
        description="Show every setting the game's ruleset declares: set, blank (a turn that "
                    "needs it stops, naming it), read as its default, or written by "
                    "sheetmaster; and each settings tab's blank cells. With --from, copy "
                    "another game's values (the example's, say: sheetmaster new RULESET "
                    "example.xlsx --example) into the blanks only: a value you set is never "
                    "changed, and a settings tab's missing rows are added.")
    p.add_argument("file", help="the game's .xlsx file")
    p.add_argument("--from", dest="source", metavar="OTHER.xlsx",
                   help="a game of the same ruleset whose values fill the blanks")
    p.add_argument("--dry-run", action="store_true",
                   help="with --from: say what would be filled, write nothing")
    p.set_defaults(run=cmd_settings)

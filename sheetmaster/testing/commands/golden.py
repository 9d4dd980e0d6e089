"""golden: this turn as a golden test case (YAML), from a game's workbook."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sheetmaster.app.commands.options import dice_secret, dice_seed
from sheetmaster.app.exits import Exit


def cmd_golden(args: argparse.Namespace) -> int:
    import yaml

    from sheetmaster.app.runs import ruleset_of
    from sheetmaster.stores.xlsx import XlsxStore
    from sheetmaster.testing.golden import capture_case

    state = XlsxStore(args.file).load()
    ruleset = ruleset_of(state)
    case = capture_case(ruleset, state, args.rule, seed=args.seed,
                        secret=dice_secret(args, needed=args.seed is None))
    text = yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100)
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: check its expectations by the rules, then put it in "
          f"tests/golden/{ruleset.name}/")
    return Exit.OK



def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "golden", parents=[common], help="turn this turn into a golden test case (YAML)",
        description="Resolve the current turn in memory and write it as a golden test case: "
                    "the tabs, orders, dice rolled, and the outcome as expectations. Nothing "
                    "is written to the game.")
    p.add_argument("file", help="the game's .xlsx file")
    p.add_argument("--out", required=True, help="the .yaml file to write")
    p.add_argument("--rule", default="(quote the rule this case checks)",
                   help="the rule text the case checks, quoted from the rules")
    p.add_argument("--seed", type=dice_seed, help="dice seed to use instead of the game's")
    p.set_defaults(run=cmd_golden)


"""new-ruleset: a new ruleset in the one layout, with tests that pass."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sheetmaster.app.exits import Exit


def cmd_new_ruleset(args: argparse.Namespace) -> int:
    from sheetmaster import rules
    from sheetmaster.app.scaffold import plan, write

    builtin = Path(rules.__file__).parent
    taken = {*rules.available(), *(p.name for p in builtin.iterdir() if p.is_dir())}
    scaffold = plan(args.name, Path(args.out), taken,
                    Path(args.tests) if args.tests else None)
    write(scaffold)
    print(f"wrote {scaffold.package}/: the {scaffold.name} ruleset (import {scaffold.module}), "
          f"a small game that resolves; its tests: {scaffold.test_file} and "
          f"{scaffold.golden}")
    print(f"run its tests: cd {scaffold.root} && python -m pytest {scaffold.test_file}")
    print("then make it your game: docs/writing-a-ruleset.md walks through each file; replace "
          "every PLACEHOLDER, beginning with the rule phases/building.py quotes")
    if "." not in scaffold.module:
        print(f"to play it, register it under the 'sheetmaster.rules' entry point group of "
              f"your package's pyproject.toml ({scaffold.name} = \"{scaffold.module}:RULESET\") "
              f"and install it: then `sheetmaster new {scaffold.name} game.xlsx --example`")
    return Exit.OK


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "new-ruleset", parents=[common], help="a new ruleset, in the one layout, with its tests",
        description="Write a new ruleset's package NAME/ in the layout every ruleset has "
                    "(README.md, ruleset.py, tables.py, orders.py, settings.py, world.py, "
                    "load.py, reasons.py, example.py, phases/): a small game that resolves "
                    "(players with gold, one order that spends it, one phase quoting a "
                    "placeholder rule, a GM setting, an example game), and its tests (a "
                    "golden turn, the example resolving) in tests/ beside the top package. "
                    "Nothing is written over. docs/writing-a-ruleset.md walks through it.")
    p.add_argument("name", help="the ruleset's name: a lower-case Python identifier, e.g. my_game")
    p.add_argument("--out", default=".", metavar="DIR",
                   help="the folder the package goes in (default: here, for a ruleset in its "
                        "own project; sheetmaster/rules of a checkout to contribute it)")
    p.add_argument("--tests", metavar="DIR",
                   help="the folder its tests go in (default: tests/ beside the top package)")
    p.set_defaults(run=cmd_new_ruleset)

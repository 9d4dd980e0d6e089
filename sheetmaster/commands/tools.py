"""rules, golden and completion: what sheetmaster knows, test cases, and the shell."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sheetmaster import json_output, rules
from sheetmaster.commands.options import dice_secret, json_option
from sheetmaster.console import verbosity
from sheetmaster.exits import Exit
from sheetmaster.runs import ruleset_of
from sheetmaster.stores.xlsx import XlsxStore

SHELLS = ("bash", "zsh", "fish", "tcsh", "powershell")


def cmd_rules(args: argparse.Namespace) -> int:
    available = rules.available()
    if args.json:
        print(json_output.dumps(json_output.rules_document(available)))
        return Exit.OK
    for name, ruleset in sorted(available.items()):
        print(f"{name:12} {ruleset.title}")
        if verbosity(args) > 0:
            for phase in ruleset.phases:
                print(f"    {phase.key}. {phase.title}")
    return Exit.OK


def cmd_golden(args: argparse.Namespace) -> int:
    import yaml

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


def cmd_completion(args: argparse.Namespace) -> int:
    import argcomplete

    print(argcomplete.shellcode(["sheetmaster"], shell=args.shell), end="")
    return Exit.OK


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "rules", parents=[common], help="list the rulesets sheetmaster knows",
        description="List the rulesets sheetmaster knows: the built-in ones and any a "
                    "package registers under the 'sheetmaster.rules' entry point group. "
                    "-v lists each one's phases in the order they run.")
    json_option(p)
    p.set_defaults(run=cmd_rules)

    p = sub.add_parser(
        "golden", parents=[common], help="turn this turn into a golden test case (YAML)",
        description="Resolve the current turn in memory and write it as a golden test case: "
                    "the tabs, orders, dice rolled, and the outcome as expectations. Nothing "
                    "is written to the game.")
    p.add_argument("file", help="the game's .xlsx file")
    p.add_argument("--out", required=True, help="the .yaml file to write")
    p.add_argument("--rule", default="(quote the rule this case checks)",
                   help="the rule text the case checks, quoted from the rules")
    p.add_argument("--seed", type=int, help="dice seed to use instead of the game's")
    p.set_defaults(run=cmd_golden)

    p = sub.add_parser(
        "completion", parents=[common], help="print the shell code for tab completion",
        description="Print the code that makes your shell complete sheetmaster's commands "
                    "and options. Bash: add  eval \"$(sheetmaster completion bash)\"  to "
                    "~/.bashrc; zsh: the same in ~/.zshrc; fish: sheetmaster completion fish "
                    "> ~/.config/fish/completions/sheetmaster.fish")
    p.add_argument("shell", choices=SHELLS, help="your shell")
    p.set_defaults(run=cmd_completion)

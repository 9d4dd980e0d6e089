"""rules and completion: what sheetmaster knows, and the shell."""

from __future__ import annotations

import argparse
from typing import Any

from sheetmaster import rules
from sheetmaster.app.commands.options import json_option
from sheetmaster.app.console import verbosity
from sheetmaster.app.exits import Exit

SHELLS = ("bash", "zsh", "fish", "tcsh", "powershell")


def cmd_rules(args: argparse.Namespace) -> int:
    from sheetmaster.app import json_output

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
        "completion", parents=[common], help="print the shell code for tab completion",
        description="Print the code that makes your shell complete sheetmaster's commands "
                    "and options. Bash: add  eval \"$(sheetmaster completion bash)\"  to "
                    "~/.bashrc; zsh: the same in ~/.zshrc; fish: sheetmaster completion fish "
                    "> ~/.config/fish/completions/sheetmaster.fish")
    p.add_argument("shell", choices=SHELLS, help="your shell")
    p.set_defaults(run=cmd_completion)

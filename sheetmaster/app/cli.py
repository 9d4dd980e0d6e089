# PYTHON_ARGCOMPLETE_OK  (tells argcomplete this command completes; see 'sheetmaster completion')
"""The ``sheetmaster`` command: the parser, logging, and exit codes for every subcommand.

The subcommands live in :mod:`sheetmaster.app.commands`; here every exception a command raises
becomes one message on stderr (or a JSON error document with ``--json``) and an exit code
from :class:`sheetmaster.app.exits.Exit`.

The parser is built from light modules alone: a command imports what it runs with (pandas,
a store, a ruleset, rich) when it runs, so ``--version``, ``--help`` and the shell's
completion start at once (``tests/test_startup.py`` holds it).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import logging
import os
import sys
import textwrap
from typing import Any

from sheetmaster import __version__
from sheetmaster.app.commands import MODULES, plugged_in
from sheetmaster.app.commands.options import common_parser, global_options
from sheetmaster.app.console import setup_logging, verbosity
from sheetmaster.app.exits import Exit, classify, help_text
from sheetmaster.kit import fairness

log = logging.getLogger("sheetmaster")

DESCRIPTION = """\
sheetmaster resolves a play-by-post strategy game's turn from its spreadsheet, exactly by
the rules, and shows its work: a result and reason on every order row, every change and
every die in the Log tab, and a per-player report.

A typical turn:
  sheetmaster new claims my-game.xlsx         a blank game (or --example for a playable one)
  sheetmaster check my-game.xlsx              tell players which orders would fail
  sheetmaster resolve my-game.xlsx --dry-run  see what the turn would do, write nothing
  sheetmaster resolve my-game.xlsx            resolve it (a backup of the old turn is kept)

"""


class CommandParser(argparse.ArgumentParser):
    """argparse with the help a user needs when a word is wrong: a mistyped command or choice
    gets "did you mean", and each command's parser records itself in the namespace
    (``parser``), so an unknown option is shown with that command's own usage."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_defaults(parser=self)  # a command's parser sets it after sheetmaster's

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = [str(c) for c in action.choices] if action.choices is not None else []
        if choices and value not in action.choices:
            close = difflib.get_close_matches(str(value), choices, n=1)
            if close:
                raise argparse.ArgumentError(
                    action, f"invalid choice: {value!r}; did you mean {close[0]!r}? (choose "
                            f"from {', '.join(choices)})")
        super()._check_value(action, value)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line; given the ``argv`` to parse, the plugged-in commands are
    looked for only when its command is not a built-in one (or there is none, as in
    ``--help``): finding them reads every installed package's metadata (issue 26.3)."""
    parser = CommandParser(
        prog="sheetmaster", description=DESCRIPTION + textwrap.fill(fairness.EXAMPLE_HELP, 88),
        epilog=help_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"sheetmaster {__version__}")
    global_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    common = common_parser()
    for module in MODULES:
        module.register(sub, common)
    if argv is None or _command_word(argv) not in sub.choices:
        for module in plugged_in():
            module.register(sub, common)
    return parser


def _command_word(argv: list[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option (sheetmaster's own
    options, -v and -q, take no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The command line; what the command's own parser did not know is refused with that
    command's usage (argparse would show sheetmaster's)."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def silence_output() -> None:
    """stdout's reader went away (``| head``): stdout goes to the null device, so that
    Python's own last flush of it says nothing either."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        stdout = sys.stdout.fileno()  # none when stdout is not a file (a test's)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stdout)
        os.close(null)


def main(argv: list[str] | None = None) -> int:
    # numpy's OpenBLAS starts a thread per core when numpy is imported, which costs CPU time
    # at every start; sheetmaster does no linear algebra (issue 26.3)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    completing = "_ARGCOMPLETE" in os.environ
    parser = build_parser(None if completing else sys.argv[1:] if argv is None else argv)
    if completing:  # the shell asks for completions (argcomplete's protocol)
        import argcomplete

        argcomplete.autocomplete(parser)  # prints them and ends the process
    args = parse(parser, argv)
    setup_logging(verbosity(args))
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        log.error("interrupted; the game was not changed")
        return Exit.INTERRUPTED
    except Exception as exc:
        if isinstance(exc, BrokenPipeError):
            # the one pipe sheetmaster writes is its output (requests and gspread wrap a
            # dropped connection in errors of their own): the reader has what it wanted
            silence_output()
            return Exit.PIPE_CLOSED
        code, kind, message = classify(exc)
        if code == Exit.INTERNAL:
            log.error("sheetmaster failed; please report this with the lines below",
                      exc_info=exc)
        if getattr(args, "json", False):
            from sheetmaster.app import json_output

            print(json_output.dumps(json_output.error_document(args.command, code, kind,
                                                               message, exc)))
        log.error("%s", message)
        return code


if __name__ == "__main__":
    sys.exit(main())

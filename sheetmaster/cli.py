# PYTHON_ARGCOMPLETE_OK  (tells argcomplete this command completes; see 'sheetmaster completion')
"""The ``sheetmaster`` command: the parser, logging, and exit codes for every subcommand.

The subcommands live in :mod:`sheetmaster.commands`; here every exception a command raises
becomes one message on stderr (or a JSON error document with ``--json``) and an exit code
from :class:`sheetmaster.exits.Exit`.
"""

from __future__ import annotations

import argparse
import logging
import sys

import argcomplete

from sheetmaster import __version__, json_output
from sheetmaster.commands import MODULES
from sheetmaster.commands.options import common_parser
from sheetmaster.console import setup_logging, verbosity
from sheetmaster.exits import Exit, classify, help_text

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sheetmaster", description=DESCRIPTION, epilog=help_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"sheetmaster {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    common = common_parser()
    for module in MODULES:
        module.register(sub, common)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argcomplete.autocomplete(parser)  # returns at once unless the shell asks for completions
    args = parser.parse_args(argv)
    setup_logging(verbosity(args))
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        log.error("interrupted; the game was not changed")
        return Exit.INTERRUPTED
    except Exception as exc:
        code, kind, message = classify(exc)
        if code == Exit.INTERNAL:
            log.error("sheetmaster failed; please report this with the lines below",
                      exc_info=exc)
        if getattr(args, "json", False):
            print(json_output.dumps(json_output.error_document(args.command, code, kind,
                                                               message, exc)))
        log.error("%s", message)
        return code


if __name__ == "__main__":
    sys.exit(main())

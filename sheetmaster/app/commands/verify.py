"""verify: any player checks a resolved turn's dice (see :mod:`sheetmaster.app.verify`)."""

from __future__ import annotations

import argparse
from typing import Any

from sheetmaster.app.commands.options import dice_secret, game_store, sheet_options


def cmd_verify(args: argparse.Namespace) -> int:
    from sheetmaster.app import verify
    from sheetmaster.app.runs import Mode

    secret = dice_secret(args, needed=False)  # the GM's, if at hand; players have none
    return verify.run(args, game_store(args, Mode.CHECK), secret)


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "verify", parents=[common],
        help="check that a resolved turn's dice are the committed ones (any player can)",
        description="Check a resolved turn as any player can, without the dice secret: the "
                    "Log reveals the turn's seed (a turn resolved with --seed fails), which "
                    "hashes to the commitment published before the deadline, every die in the "
                    "Log follows from it, and (given the state before the turn: a workbook's "
                    "backup, a Google Sheet's undo snapshot, or --before) resolving the turn "
                    "again gives the same Log and sheet. Exits 1 if a check fails.")
    p.add_argument("file", nargs="?", help="the game's .xlsx file (or use --sheet)")
    sheet_options(p)
    p.add_argument("--turn", type=int, help="the turn to check (default: the last resolved)")
    p.add_argument("--before", metavar="FILE",
                   help="a copy of the game (.xlsx) as it was before that turn was resolved")
    p.add_argument("--commitment", metavar="HASH",
                   help="the dice commitment you saw before the deadline, to compare")
    p.set_defaults(run=cmd_verify, dry_run=False)

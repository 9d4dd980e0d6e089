"""Discord: --discord for resolve and nightly (a resolved turn's reports and map posted), and
``sheetmaster post`` (a resolved turn posted again, from the files it wrote).

The webhooks are read from the secrets before the turn is resolved (a missing or malformed
secret stops the run before anything happens); the posts go out after the game is written,
and each message posted is written down beside the turn's report (NAME-turn-N-discord.json),
so ``post`` never posts a channel twice.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheetmaster.app.delivery.webhooks import PLAYERS_ENV, PUBLIC_ENV, Webhooks, from_env
from sheetmaster.app.exits import Exit, UsageError

if TYPE_CHECKING:
    from sheetmaster.app.report import TurnGroups
    from sheetmaster.app.runs import RunOutcome

if TYPE_CHECKING:
    from sheetmaster.app.delivery.post import Posted

log = logging.getLogger("sheetmaster")


def discord_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--discord", action="store_true",
                   help=f"post the turn to Discord: the public report and the map to the "
                        f"webhook in ${PUBLIC_ENV}, each player's own report to theirs in "
                        f"${PLAYERS_ENV} (see the README); never from the sheet")


def discord_webhooks(wanted: bool, *, public: str = PUBLIC_ENV,
                     players: str = PLAYERS_ENV) -> Webhooks | None:
    """The webhooks when posting is asked for (``public``, ``players``: the secrets' names, a
    game's own in games.toml); none configured is a usage error."""
    if not wanted:
        return None
    webhooks = from_env(public=public, players=players)
    if not webhooks:
        raise UsageError(f"--discord: set the secret {public} (the public channel's "
                         f"webhook) or {players} (each player's)")
    return webhooks


def post(outcome: RunOutcome, webhooks: Webhooks, map_png: bytes | None, *,
         quiet: bool = False, groups: TurnGroups | None = None,
         report: Path | None = None) -> str:
    """Post the written turn; returns a line saying where it went (``quiet``: logged
    instead, and nothing else on stdout either, for --json; ``groups``: the turn grouped for
    its reports, if the run has it already; ``report``: the public report written, beside
    which the record of the posts is kept)."""
    from sheetmaster.app.delivery.post import post_turn
    from sheetmaster.app.delivery.record import PostRecord, record_path
    from sheetmaster.kit import values

    assert outcome.result is not None and outcome.ruleset is not None
    game = values.text(outcome.result.after.meta.get("game"))
    # a turn just resolved is posted everywhere: a record of this turn beside its report is
    # an earlier resolve's (undone since), written over
    record = PostRecord(record_path(report), outcome.result.turn) if report else None
    posted = post_turn(outcome.ruleset, outcome.result, webhooks, game=game, map_png=map_png,
                       mask=not quiet, groups=groups, record=record)
    line = said(posted)
    if quiet:
        log.info("%s", line)
        return ""
    return line


def said(posted: Posted) -> str:
    """The line that says where a turn was posted."""
    line = (f"posted to Discord: {', '.join(posted.channels) or 'no channel'} "
            f"({posted.messages} messages)")
    if posted.had_it:
        line += f"; had the turn already: {', '.join(posted.had_it)}"
    if posted.unreached:
        line += f"; no webhook of their own: {', '.join(posted.unreached)}"
    if posted.no_report:
        line += f"; no report of theirs to post: {', '.join(posted.no_report)}"
    return line


def cmd_post(args: argparse.Namespace) -> int:
    """Post a resolved turn's reports again, from the files the resolve wrote; a channel the
    record says has the turn is skipped (unless --again)."""
    from sheetmaster.app.commands.maps import map_file
    from sheetmaster.app.commands.options import game_store
    from sheetmaster.app.delivery.post import post_reports, reports_from_files
    from sheetmaster.app.delivery.record import PostRecord, record_path
    from sheetmaster.app.runs import Mode
    from sheetmaster.kit import values
    from sheetmaster.kit.tabs import game_settings
    from sheetmaster.stores.xlsx import XlsxStore

    webhooks = discord_webhooks(True)
    assert webhooks is not None
    store = game_store(args, Mode.CHECK)
    state = store.load() if isinstance(store, XlsxStore) else store.look()
    settings = game_settings(state)
    current = int(settings["turn"])
    turn = current - 1 if args.turn is None else args.turn
    if turn >= current:
        raise UsageError(f"turn {turn} is not resolved yet: the game is on turn {current}")
    report = Path(args.report) if args.report else store.report_path(turn)
    if not report.is_file():
        raise UsageError(f"no report of turn {turn} at {report}: name the public report the "
                         f"resolve wrote with --report")
    if webhooks.players and not args.report_dir:
        log.warning("no --report-dir: the players' own reports and the GM's are in the folder "
                    "the resolve's --report-dir wrote them to; only the public channel is "
                    "posted")
    reports = reports_from_files(report, Path(args.report_dir) if args.report_dir else None,
                                 turn, game=values.text(settings.get("game")),
                                 map_png=map_file(report))
    record = PostRecord.load(record_path(report), turn)
    posted = post_reports(reports, webhooks, record=record, again=args.again)
    print(f"turn {turn}: {said(posted)}")
    return Exit.OK


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    from sheetmaster.app.commands.options import sheet_options

    p = sub.add_parser(
        "post", parents=[common], help="post a resolved turn to Discord (again)",
        description="Post a resolved turn's reports to Discord from the files its resolve "
                    "wrote: the public report and the map to the public channel, and, from "
                    "--report-dir, each player's own report to theirs and the GM's to the "
                    "GM's. The webhooks come from the same secrets as resolve --discord. "
                    "Each message posted is written down beside the report "
                    "(NAME-turn-N-discord.json): a channel that has the turn is not posted "
                    "again, and one a failed run left part way gets the rest. Exits 5 if "
                    "Discord failed for a channel (the others are posted).")
    p.add_argument("file", nargs="?", help="the game's .xlsx file (or use --sheet)")
    sheet_options(p)
    p.add_argument("--turn", type=int, help="the turn to post (default: the last resolved)")
    p.add_argument("--report", metavar="FILE",
                   help="the turn's public report (default: where resolve writes it, "
                        "NAME-turn-N-report.md beside the workbook; turn-N-report.md for a "
                        "Google Sheet)")
    p.add_argument("--report-dir", metavar="DIR",
                   help="the folder of the players' own reports and the GM's (the resolve's "
                        "--report-dir; nightly --all: DIR/GAME)")
    p.add_argument("--again", action="store_true",
                   help="post to every channel, even those that have the turn already")
    p.set_defaults(run=cmd_post, dry_run=False)

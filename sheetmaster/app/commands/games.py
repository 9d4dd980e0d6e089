"""Many games from one repository: ``nightly --all games.toml`` and ``games``.

Every game runs on its own: a broken sheet, a failing store or even a bug in one game is
caught, reported in the summary table, and the next game goes on. The exit code is 0 when
every game was resolved or not due, else the code of the first game that failed. Each game
reads its own secrets (the names games.toml gives it); before any game is resolved, a run
refuses two games that would post to one Discord webhook (:func:`check_own_webhooks`).
"""

from __future__ import annotations

import argparse
import json
import logging
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sheetmaster.app.commands.maps import TurnMap, map_file
from sheetmaster.app.commands.options import (
    play,
    sheet_store,
    tell_warnings,
    write_report,
    write_reports,
)
from sheetmaster.app.commands.posting import discord_webhooks, post
from sheetmaster.app.console import print_table
from sheetmaster.app.delivery.webhooks import Webhooks, from_env, shared_webhooks
from sheetmaster.app.exits import Exit, UsageError, classify
from sheetmaster.app.games import WEBHOOKS, Game, github_matrix, load_games, select
from sheetmaster.kit import fairness

log = logging.getLogger("sheetmaster")

STATUS_STYLES = {"resolved": "green", "checked": "green", "not due": "", "failed": "red"}


@dataclass
class GameRun:
    game: Game
    status: str  # resolved, not due, failed
    code: int
    turn: int | None = None
    orders: int | None = None
    note: str = ""


def run_all(args: argparse.Namespace) -> int:
    """Every game of games.toml (or those --game names), one after the other."""
    if args.sheet:
        raise UsageError("give --sheet or --all games.toml, not both")
    games = load_games(args.all)
    chosen = select(games, args.game)
    if not args.dry_run:
        check_own_webhooks(games, chosen, getattr(args, "discord", False))
    reports = _reports_folder(args.report, len(chosen))
    runs = [run_one(game, args, reports) for game in chosen]
    print_table(f"{len(runs)} game{'s' if len(runs) != 1 else ''} from {args.all}"
                f"{' (dry run)' if args.dry_run else ''}",
                ["game", "status", "turn", "orders", "note"],
                [[r.game.name, r.status, "" if r.turn is None else r.turn,
                  "" if r.orders is None else r.orders, r.note] for r in runs],
                STATUS_STYLES)
    failed = [r for r in runs if r.code != Exit.OK]
    return failed[0].code if failed else Exit.OK


def _reports_folder(report: str | None, games: int) -> Path | None:
    """--report is a file for one game, a folder (made if need be) for several."""
    if report is None:
        return None
    path = Path(report)
    if games > 1 or path.is_dir():
        path.mkdir(parents=True, exist_ok=True)
    return path


def check_own_webhooks(games: list[Game], chosen: list[Game], everyone: bool) -> None:
    """Before any game is resolved: no two games post to one Discord webhook (``everyone``:
    --discord, every game posts). Compared are the games this run posts for, with each other
    and with every other game whose webhooks this run sees as that game's own (not a game
    that reads them from the same names in an environment of its own); a game whose secrets
    cannot be read is left to fail on its own."""
    posting = [g for g in chosen if g.discord or everyone]
    others = [g for g in games if g not in chosen and g.discord
              and not any(_elsewhere(g, p) for p in posting)]
    seen: dict[str, Webhooks] = {}
    for game in [*posting, *others]:
        try:
            seen[game.name] = from_env(public=game.secret_name("discord"),
                                       players=game.secret_name("discord_players"))
        except UsageError:
            continue
    for (one, first), (other, second) in shared_webhooks(seen):
        if one in {g.name for g in posting} or other in {g.name for g in posting}:
            raise UsageError(
                f"games '{one}' and '{other}' post to the same Discord webhook ('{one}': "
                f"{first}, in {first.source}; '{other}': {second}, in {second.source}): one "
                f"game's reports would reach the other's players. Give each game webhooks "
                f"of its own (games.toml names each game's secrets); nothing was resolved")


def _elsewhere(game: Game, posting: Game) -> bool:
    """Whether ``game`` reads its webhooks from names ``posting`` reads too, each in an
    environment of its own: this run, in ``posting``'s, sees ``posting``'s values there."""
    shared = {game.secret_name(w) for w in WEBHOOKS} & {posting.secret_name(w)
                                                          for w in WEBHOOKS}
    return bool(shared and game.environment and posting.environment and
                game.environment != posting.environment)


def run_one(game: Game, args: argparse.Namespace, reports: Path | None) -> GameRun:
    from sheetmaster.app.delivery.discord import DeliveryError
    from sheetmaster.app.report import TurnGroups
    from sheetmaster.app.runs import Mode
    from sheetmaster.stores.xlsx import XlsxStore

    log.info("%s: %s, %s rules", game.name, game.where, game.ruleset)
    try:
        missing = game.missing_secrets()
        if missing:
            return GameRun(game, "failed", Exit.STORE,
                           note=f"secret {', '.join(missing)} is not set")
        env = game.environ()  # this game's own secrets, under the names sheetmaster reads
        webhooks = discord_webhooks((game.discord or getattr(args, "discord", False))
                                    and not args.dry_run,
                                    public=game.secret_name("discord"),
                                    players=game.secret_name("discord_players"))
        picture = TurnMap.from_args(args, game.map_image)
        # each game its own dice: a sheet's secret is bound to the sheet, a workbook's is
        # the file beside it
        secret = fairness.for_sheet(fairness.read_secret(env=env), game.sheet) if game.sheet \
            else fairness.read_secret(game.file, env=env)
        store = sheet_store(game.sheet, args.credentials, secret, env=env) if game.sheet \
            else XlsxStore(game.file)
        outcome = play(store, Mode.SCHEDULED, args, ruleset=game.ruleset, secret=secret,
                       before_save=picture.draw)
        if outcome.result is None:
            return GameRun(game, "not due", Exit.OK, note=outcome.waiting)
        result = outcome.result
        tell_warnings(result.public(), game.name)
        note = "dry run: nothing written"
        if outcome.written:
            target = reports / f"{game.name}-turn-{result.turn}-report.md" \
                if reports is not None and reports.is_dir() else reports
            if target is None and game.file is not None:
                target = store.report_path(result.turn)
            elif target is None:
                target = Path(f"{game.name}-turn-{result.turn}-report.md")
            groups = TurnGroups(outcome.ruleset, result)  # once, for all the turn's reports
            written = write_report(store, outcome, target, groups=groups)
            note = f"report: {written}"
            drawn = picture.write(map_file(written))
            if drawn:
                note += f", map: {drawn}"
            if getattr(args, "report_dir", None):
                write_reports(outcome, Path(args.report_dir) / game.name, groups=groups)
            if webhooks:
                try:
                    sent = post(outcome, webhooks, picture.png, groups=groups, report=written)
                    note += f"; {sent}"
                except DeliveryError as exc:
                    log.error("%s: %s", game.name, exc)
                    return GameRun(game, "resolved", Exit.STORE, turn=result.turn,
                                   orders=len(result.public().results),
                                   note=f"{note}; Discord: {exc}")
        return GameRun(game, "resolved" if outcome.written else "checked", Exit.OK,
                       turn=result.turn, orders=len(result.public().results), note=note)
    except Exception as exc:  # one game's failure never stops the others
        code, kind, message = classify(exc)
        if code == Exit.INTERNAL:
            log.error("%s: %s\n%s", game.name, message, traceback.format_exc())
        else:
            log.error("%s: %s", game.name, message)
        return GameRun(game, "failed", code, note=f"{kind}: {message.splitlines()[0]}")


def cmd_games(args: argparse.Namespace) -> int:
    games = load_games(args.file)
    if args.workflow:
        from sheetmaster.app.gamerepo import check_workflow

        check_workflow(games, Path(args.workflow))
    if args.github_matrix:
        matrix = github_matrix(games)
        print(f"matrix={json.dumps(matrix, separators=(',', ':'))}")
        print(f"count={len(matrix['include'])}")
        for game in games:
            if not game.sheet:
                log.warning("%s is a workbook game: run it locally (nightly --all); the "
                            "workflow resolves Google Sheet games only", game.name)
        return Exit.OK
    print_table(f"{len(games)} games in {args.file}",
                ["game", "ruleset", "where", "environment", "secrets of its own"],
                [[g.name, g.ruleset, g.where, g.environment,
                  ", ".join(f"{what}: {name}" for what, name in g.secrets.items())]
                 for g in games])
    return Exit.OK


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "games", parents=[common], help="list and check the games of a games.toml",
        description="Read a games.toml (the games one repository resolves; see "
                    "`sheetmaster init --repo`), check it, and list its games. "
                    "--github-matrix prints the nightly workflow's job matrix instead.")
    p.add_argument("file", help="the games.toml file")
    p.add_argument("--github-matrix", action="store_true",
                   help="print 'matrix=...' and 'count=...' lines for $GITHUB_OUTPUT")
    p.add_argument("--workflow", metavar="FILE",
                   help="check that this workflow hands its jobs every secret games.toml "
                        "names (the nightly workflow's listing job does)")
    p.set_defaults(run=cmd_games)

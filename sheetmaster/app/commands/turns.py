"""check, resolve, nightly and undo: a turn on a workbook or a Google Sheet."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheetmaster.app.commands.games import run_all
from sheetmaster.app.commands.maps import TurnMap, map_file, resolve_map_options
from sheetmaster.app.commands.options import (
    check_outputs,
    dice_secret,
    dice_seed,
    game_label,
    game_store,
    json_option,
    play,
    report_dir_option,
    sheet_options,
    tell_store_notes,
    tell_warnings,
    write_report,
    write_reports,
)
from sheetmaster.app.commands.posting import discord_option, discord_webhooks, post
from sheetmaster.app.console import out_console
from sheetmaster.app.exits import Exit, UsageError
from sheetmaster.engine import collector
from sheetmaster.kit import fairness
from sheetmaster.kit.model import Status

if TYPE_CHECKING:
    from sheetmaster.app.report import TurnGroups
    from sheetmaster.app.runs import Mode
    from sheetmaster.kit.model import TurnResult
    from sheetmaster.kit.ruleset import Ruleset

log = logging.getLogger("sheetmaster")

#: what the output of a game with private orders says of them (always, so it tells nothing).
PRIVATE_NOTE = ("(private orders, such as a card played from a hand, are not listed here: "
                "their players' own reports and the GM's say what became of them)")

PRACTICE_NOTE = ("(the deadline has not passed: these are practice dice, not the turn's own; "
                 "outcomes that depend on dice will differ)")
SEED_NOTE = ("(practice dice from --seed {seed}, not the turn's own: those come from the game's "
             "dice secret, and once the turn's commitment is published a resolve refuses "
             "--seed; outcomes that depend on dice may differ)")


def run(args: argparse.Namespace, mode: Mode) -> int:
    """check, resolve and nightly, on either store."""
    with collector.paused():  # pandas's imports make objects the collector need not walk
        from sheetmaster.app import json_output
        from sheetmaster.app.report import TurnGroups, format_diff, format_results
        from sheetmaster.app.runs import Mode, RunOutcome
        from sheetmaster.engine.checking import CHECK_WORDS

    seed = getattr(args, "seed", None)
    # On a Google Sheet the secret also signs the run's lock (a lock a player plants is not
    # signed), so a run that writes a sheet needs it, but a test's with dice of its own.
    secret = dice_secret(args, needed=bool(args.sheet) and seed is None)
    store = game_store(args, mode, secret)
    if not getattr(args, "dry_run", False):
        check_outputs(args, store, mode)
    webhooks = discord_webhooks(getattr(args, "discord", False) and mode is not Mode.CHECK)
    picture = TurnMap.from_args(args) if mode is not Mode.CHECK else None
    reports: list[Path] = []
    groups: TurnGroups | None = None  # the turn grouped once for all its reports

    def before_save(ruleset: Ruleset, result: TurnResult) -> None:
        """The map is drawn (its problems stop the turn before anything is written) and the
        players' reports written just before the turn, so no kill can lose them (a run killed
        before its write leaves the turn, and its reports, to the next run)."""
        nonlocal groups
        if mode is Mode.CHECK:
            return
        if picture:
            picture.draw(ruleset, result)
        written = RunOutcome(ruleset, result, written=True)
        groups = TurnGroups(ruleset, result)
        reports.append(write_report(store, written, args.report, groups=groups))
        if getattr(args, "report_dir", None):
            reports.extend(write_reports(written, args.report_dir, groups=groups))

    try:
        outcome = play(store, mode, args, secret=secret, before_save=before_save)
    except BaseException as exc:
        for path in reports:  # the turn was not written: no report of it may be posted
            path.unlink(missing_ok=True)
        # SecretNeeded's own message says what cannot be opened without the secret, and who
        # has it; any other DiceSecretError is told exactly what is missing or wrong
        if isinstance(exc, fairness.DiceSecretError):
            from sheetmaster.kit.sealed import SecretNeeded  # (and cryptography with it)

            if not isinstance(exc, SecretNeeded):
                dice_secret(args, needed=True)
        raise
    result, ruleset = outcome.result, outcome.ruleset
    if result is None:
        print(f"nothing to do: {outcome.waiting}")
        return Exit.OK
    report = reports[0] if reports else None
    if mode is Mode.CHECK and outcome.written and getattr(args, "report_dir", None):
        write_reports(outcome, args.report_dir, checked=True)  # each player's hand, as it is
    drawn = picture.write(map_file(report)) if picture and report else None
    posted = post(outcome, webhooks, picture.png if picture else None,
                  quiet=getattr(args, "json", False), groups=groups, report=report) \
        if webhooks and outcome.written else ""
    # Output may land in a public CI log: no secret order (nor its count: the exit code
    # counts public orders alone), no private line.
    shown = result.public()
    bad = sum(r.status is Status.REJECTED for r in shown.results)
    code = Exit.REJECTED if mode is Mode.CHECK and bad else Exit.OK
    if getattr(args, "json", False):
        command = "check" if mode is Mode.CHECK else "resolve"
        print(json_output.dumps(json_output.turn_document(
            command, game_label(args), ruleset, shown, dry_run=not outcome.written,
            written=outcome.written, report=report, practice=outcome.practice)))
        return code
    print(f"turn {result.turn}: {len(shown.results)} order{'' if len(shown.results) == 1 else 's'}")
    if any(kind.secret or kind.secret_when for kind in ruleset.order_kinds):
        print(PRIVATE_NOTE)
    if outcome.practice:
        print(PRACTICE_NOTE if seed is None else SEED_NOTE.format(seed=seed))
    print(format_results(shown, CHECK_WORDS if mode is Mode.CHECK else None))
    tell_warnings(shown)  # on stderr, as every warning (--json lists them instead)
    console = out_console()
    if mode is Mode.CHECK:
        style = "yellow" if bad else "green"
        console.print(f"{len(shown.results)} orders checked, {bad} would be rejected.",
                      style=style)
        return code
    if not outcome.written:
        print("\nWhat would change, per player:")
        print(format_diff(ruleset, shown))
        print("\n(dry run: nothing was written)")
        return code
    console.print(f"resolved turn {result.turn}; the game is now on turn {result.turn + 1}.",
                  style="green")
    if getattr(store, "kept", None):
        print(f"the workbook as it was before the turn is kept at {store.kept}")
    if getattr(args, "out", None) and args.file:
        copied = fairness.keep_secret_beside(Path(args.file), Path(args.out))
        if copied:
            print(f"its dice secret was copied to {copied}: keep it private")
    print(f"turn report for the players: {report}")
    if drawn:
        print(f"the map after the turn: {drawn}")
    if posted:
        print(posted)
    return code


def cmd_check(args: argparse.Namespace) -> int:
    from sheetmaster.app.runs import Mode

    return run(args, Mode.CHECK)


def cmd_resolve(args: argparse.Namespace) -> int:
    from sheetmaster.app.runs import Mode

    return run(args, Mode.RESOLVE)


def cmd_nightly(args: argparse.Namespace) -> int:
    """The scheduled run: resolves only a due turn, exactly once."""
    from sheetmaster.app.runs import Mode

    if args.all:
        return run_all(args)
    if args.game:
        raise UsageError("--game goes with --all games.toml")
    if not args.sheet:
        raise UsageError("name the game: --sheet SPREADSHEET_ID, or --all games.toml")
    return run(args, Mode.SCHEDULED)


def cmd_undo(args: argparse.Namespace) -> int:
    from sheetmaster.app.runs import Mode, undo_turn

    # a Google Sheet's undo snapshot is checked with a key from the dice secret
    store = game_store(args, Mode.CHECK, dice_secret(args, needed=bool(args.sheet)))
    try:
        turn = undo_turn(store)
    finally:
        tell_store_notes(store)
    print(f"undid turn {turn}: the game is back on turn {turn}, as it was before it was "
          f"resolved.")
    return Exit.OK


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "check", parents=[common], help="fill each order's result with 'ok' or why it would fail",
        description="Check this turn's orders without resolving anything: each order row's "
                    "result becomes 'ok' or 'would be rejected' with the reason, as things "
                    "stand now. Exits 1 if any order would be rejected.")
    p.add_argument("file", nargs="?", help="the game's .xlsx file (or use --sheet)")
    sheet_options(p)
    p.add_argument("--out", help="write to this file instead of updating the game in place")
    p.add_argument("--force", action="store_true", help="overwrite the --out file if it exists")
    report_dir_option(p)
    json_option(p)
    p.set_defaults(run=cmd_check, dry_run=False, report=None)

    p = sub.add_parser(
        "resolve", parents=[common], help="resolve the current turn and write the new state",
        description="Resolve the current turn: every phase in order, a result and reason on "
                    "every order row, every change and die in the Log tab, turn + 1. A backup "
                    "of the workbook as it was is kept, and the file is replaced atomically. "
                    "Exits 4 if the turn's deadline has not passed (see --force).")
    p.add_argument("file", nargs="?", help="the game's .xlsx file (or use --sheet)")
    sheet_options(p)
    p.add_argument("--dry-run", action="store_true",
                   help="print the results and what would change per player; write nothing")
    p.add_argument("--out", help="write the resolved game to this file; the original stays "
                                 "(an existing file is only overwritten with --force)")
    p.add_argument("--report", help="where to write the players' turn report (markdown)")
    report_dir_option(p)
    resolve_map_options(p)
    discord_option(p)
    p.add_argument("--seed", type=dice_seed,
                   help="dice seed to use instead of the game's (tests), 0 to 2^64-1; refused "
                        "once the turn's dice commitment is published, except with --dry-run "
                        "(practice dice)")
    p.add_argument("--force", action="store_true",
                   help="resolve even before the deadline, and overwrite an existing --out file")
    json_option(p)
    p.set_defaults(run=cmd_resolve)

    p = sub.add_parser(
        "nightly", parents=[common],
        help="the scheduled run: resolve a game's turn if due (or every game of games.toml)",
        description="Resolve the game's turn only if its deadline has passed and the turn is "
                    "not resolved yet; otherwise do nothing (exit 0: waiting is a nightly "
                    "run's normal outcome). Safe to run twice, late, or twice at once. With "
                    "--all games.toml, every game listed there, one after the other, each on "
                    "its own: one broken game never stops the others.")
    sheet_options(p)
    p.add_argument("--all", metavar="GAMES_TOML",
                   help="run every game listed in this file (`sheetmaster init --repo` writes one)")
    p.add_argument("--game", action="append", metavar="NAME",
                   help="with --all: only this game (repeat for several)")
    p.add_argument("--dry-run", action="store_true", help="print what would happen only")
    p.add_argument("--report", help="where to write the players' turn report (markdown; "
                                    "with --all and several games, a folder)")
    report_dir_option(p)
    resolve_map_options(p)
    discord_option(p)
    p.set_defaults(run=cmd_nightly, file=None)

    p = sub.add_parser(
        "undo", parents=[common], help="put the game back as it was before the last resolve",
        description="Undo the last resolved turn: a workbook is restored from the backup "
                    "taken before it; a Google Sheet gets back every cell the turn wrote, from "
                    "the snapshot kept in its hidden 'sheetmaster undo' tab.")
    p.add_argument("file", nargs="?", help="the game's .xlsx file (or use --sheet)")
    sheet_options(p)
    p.set_defaults(run=cmd_undo, dry_run=False)

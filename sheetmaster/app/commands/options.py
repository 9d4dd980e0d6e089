"""What several commands share: options, the game (store) a command names, playing a turn.

The options are declared with argparse alone, for the parser of every command; what a command
runs with (a store, the engine, reports) is imported by the function that needs it, when the
command runs (``tests/test_startup.py``).
"""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sheetmaster.app.console import Steps, verbosity
from sheetmaster.app.exits import UsageError
from sheetmaster.kit import fairness
from sheetmaster.kit.model import WARNING

if TYPE_CHECKING:
    from sheetmaster.app.report import TurnGroups
    from sheetmaster.app.runs import Mode, RunOutcome
    from sheetmaster.kit.model import TurnResult
    from sheetmaster.kit.ruleset import Ruleset

log = logging.getLogger("sheetmaster")


def common_parser() -> argparse.ArgumentParser:
    """-v/-q, given to every command through ``parents=``."""
    common = argparse.ArgumentParser(add_help=False)
    output_options(common.add_argument_group("output"))
    return common


def global_options(parser: argparse.ArgumentParser) -> None:
    """-v/-q before the command too (``sheetmaster -q new ...``). Their own names: a
    command's parser would set its -v/-q over the same names (argparse's defaults)."""
    output_options(parser, prefix="global_")


def output_options(group: Any, prefix: str = "") -> None:
    group.add_argument("-v", "--verbose", action="count", default=0, dest=f"{prefix}verbose",
                       help="say more (each step's time; -vv for debugging)")
    group.add_argument("-q", "--quiet", action="count", default=0, dest=f"{prefix}quiet",
                       help="say less: no progress bar or notes, errors only with -qq")


def json_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true",
                   help="print one JSON document on stdout for scripts and bots (see the "
                        "README, 'Output for scripts'); errors too")


def sheet_options(p: argparse.ArgumentParser, required: bool = False) -> None:
    p.add_argument("--sheet", required=required, metavar="SPREADSHEET_ID",
                   help="a Google Sheet's id (from its address) instead of a file")
    p.add_argument("--credentials", metavar="FILE",
                   help="a service account key file (default: SHEETMASTER_SERVICE_ACCOUNT_JSON, "
                        "SHEETMASTER_CREDENTIALS_FILE, or Application Default Credentials)")


def sheet_store(sheet: str, credentials: str | None = None, secret: str | None = None, *,
                env: Mapping[str, str] | None = None) -> Any:
    """The Google Sheet's store (``env``: where the Google key is read from, a game's own
    environment; default the process's)."""
    from sheetmaster.stores.google_auth import FILE_ENV, JSON_ENV
    from sheetmaster.stores.gsheets import SheetsStore
    from sheetmaster.stores.gsheets_client import ENDPOINT_ENV, open_client, store_options

    given = credentials or any((os.environ if env is None else env).get(name, "").strip()
                               for name in (JSON_ENV, FILE_ENV, "GOOGLE_APPLICATION_CREDENTIALS"))
    if os.environ.get(ENDPOINT_ENV, "").strip() and given:
        log.warning("%s is set: Google Sheets calls go to %s, and no Google credentials are "
                    "used", ENDPOINT_ENV, os.environ[ENDPOINT_ENV].strip())
    client = open_client(credentials) if env is None else open_client(credentials, env)
    return SheetsStore(sheet, client, secret=secret, **store_options())


def dice_secret(args: argparse.Namespace, needed: bool) -> str | None:
    """The game's dice secret (the file beside a workbook, or SHEETMASTER_DICE_SECRET bound to
    a Google Sheet); None when the command can do without it and there is none."""
    sheet, file = getattr(args, "sheet", None), getattr(args, "file", None)
    if not sheet and not file:
        return None  # no game named: the command says so
    try:
        if sheet:
            return fairness.for_sheet(fairness.read_secret(), sheet)
        game = Path(file)
        if game.is_symlink() and not fairness.secret_path(game).exists():
            game = game.resolve()  # a symlinked game's secret sits beside the real file
        return fairness.read_secret(game)
    except fairness.DiceSecretError:
        if needed:
            raise
        return None


def game_store(args: argparse.Namespace, mode: Mode, secret: str | None = None) -> Any:
    """The game the command names: a Google Sheet (--sheet) or a workbook file."""
    from sheetmaster.app.runs import Mode
    from sheetmaster.stores.xlsx import XlsxStore

    if getattr(args, "sheet", None):
        if getattr(args, "file", None):
            raise UsageError("name one game: a .xlsx file or --sheet, not both")
        return sheet_store(args.sheet, args.credentials, secret)
    if not getattr(args, "file", None):
        raise UsageError("name the game: a .xlsx file, or --sheet SPREADSHEET_ID")
    out = getattr(args, "out", None)
    return XlsxStore(args.file, out=out, backup=mode is not Mode.CHECK)


def check_outputs(args: argparse.Namespace, store: Any, mode: Mode) -> None:
    """Every file the run will write can be written: checked before any work is done."""
    from sheetmaster.app.runs import Mode
    from sheetmaster.stores.xlsx_files import check_folder, check_target

    if hasattr(store, "check_writable"):
        store.check_writable()
    out, game = getattr(args, "out", None), getattr(args, "file", None)
    if out and game and Path(out).exists() and not getattr(args, "force", False) \
            and Path(out).resolve() != Path(game).resolve():
        raise UsageError(f"{out} already exists; pick another name, or add --force to "
                         f"overwrite it")
    if mode is not Mode.CHECK and hasattr(store, "report_path"):
        report = getattr(args, "report", None)
        if report and not Path(report).is_dir():
            check_target(Path(report), "the turn report")
        elif not report:
            check_folder(store.report_path(0).parent, "the turn report")


def dice_seed(text: str) -> int:
    """A --seed value: a whole number the dice can use (0 to 2^64-1)."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= seed < 2**64:
        raise argparse.ArgumentTypeError(f"{text} is out of range: a dice seed is a whole "
                                         f"number from 0 to {2**64 - 1}")
    return seed


def game_label(args: argparse.Namespace) -> str:
    return args.sheet if getattr(args, "sheet", None) else str(args.file)


def play(store: Any, mode: Mode, args: argparse.Namespace, *, ruleset: str | None = None,
         secret: str | None = None,
         before_save: Callable[[Ruleset, TurnResult], None] | None = None) -> RunOutcome:
    """run_turn with a progress bar over its steps (reading, resolving, writing). The dice
    come from ``secret``; without one a resolve stops, after the game was read and checked,
    saying what is missing. ``before_save``: see run_turn."""
    from sheetmaster.app.runs import run_turn

    dry_run = getattr(args, "dry_run", False)
    steps = 2 if dry_run else 3
    try:
        with Steps(steps, show=verbosity(args) >= 0) as bar:
            return run_turn(store, mode, dry_run=dry_run, force=getattr(args, "force", False),
                            seed=getattr(args, "seed", None), secret=secret,
                            progress=bar.step, ruleset=ruleset, before_save=before_save)
    finally:
        tell_store_notes(store)


def tell_store_notes(store: Any) -> None:
    """Say what the store did besides the turn (a Google Sheet's half-written turn that an
    earlier run left and this one put right)."""
    for note in getattr(store, "notes", []):
        log.warning("%s", note)


def tell_warnings(result: TurnResult, game: str = "") -> None:
    """Say the turn's public warnings (:data:`~sheetmaster.kit.model.WARNING` events: what the
    rules warn the GM of) on stderr, one line each, as every warning is said (``warning:
    ...``; stdout stays the command's output); ``game`` names the game among several."""
    for event in result.events:
        if event.kind == WARNING and event.public:
            log.warning("%s%s", f"{game}: " if game else "", event.text)


def report_dir_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--report-dir", metavar="DIR",
                   help="also write each player's own report (their part of the turn: "
                        "their secret orders and private lines too; the rest is in the "
                        "public report) and the GM's full report, gm.md, into this folder; "
                        "keep gm.md to yourself")


def write_reports(outcome: RunOutcome, folder: str | Path, *, checked: bool = False,
                  groups: TurnGroups | None = None) -> list[Path]:
    """Each player's own report and the GM's, as NAME.md files in ``folder`` (``checked``:
    of a check, each player's orders as they stand and their own notes; ``groups``: the turn
    grouped for its reports, if the run has it already)."""
    from sheetmaster.app.report import GM, player_reports

    assert outcome.result is not None and outcome.ruleset is not None
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for who, text in player_reports(outcome.ruleset, outcome.result, checked=checked,
                                    groups=groups).items():
        path = folder / f"{safe_file_name(who.casefold() if who == GM else who)}.md"
        write_text_atomically(path, text)
        written.append(path)
    return written


def safe_file_name(name: str) -> str:
    """A player's name as a file name: letters, digits, '-', '_' and spaces kept."""
    kept = "".join(c if c.isalnum() or c in "-_ " else "_" for c in name).strip()
    return kept or "player"


def write_report(store: Any, outcome: RunOutcome, report: str | Path | None, *,
                 groups: TurnGroups | None = None) -> Path:
    """The players' turn report of a written resolve, where asked or beside the game
    (``groups``: the turn grouped for its reports, if the run has it already)."""
    from sheetmaster.app.report import player_report

    assert outcome.result is not None and outcome.ruleset is not None
    path = Path(report) if report else store.report_path(outcome.result.turn)
    write_text_atomically(path, player_report(outcome.ruleset, outcome.result,
                                              groups=groups))
    return path


def write_text_atomically(path: Path, text: str) -> None:
    """A report appears whole or not at all (a temp file beside it, renamed over it)."""
    from sheetmaster.stores.xlsx_files import file_mode, replace_atomically, temp_beside

    with temp_beside(path) as temp:
        temp.write_text(text, encoding="utf-8")
        temp.chmod(file_mode(path))
        replace_atomically(temp, path)

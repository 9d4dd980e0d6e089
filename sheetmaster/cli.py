"""The ``sheetmaster`` command."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sheetmaster import rules
from sheetmaster.builder import build_state
from sheetmaster.engine import CHECK_WORDS
from sheetmaster.model import Status
from sheetmaster.report import format_diff, format_results, player_report
from sheetmaster.runs import Mode, ruleset_of, run_turn, undo_turn
from sheetmaster.schema import StateError
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.google_auth import CredentialsError, redact
from sheetmaster.stores.xlsx import XlsxStore
from sheetmaster.stores.xlsx_layout import write_new_workbook

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


class Progress:
    """Prints what is being done and how long it took, on stderr."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet

    def step(self, what: str):
        progress = self

        class _Step:
            def __enter__(self):
                self.start = time.perf_counter()
                if not progress.quiet:
                    print(f"{what} ...", end="", file=sys.stderr, flush=True)

            def __exit__(self, kind, exc, tb):
                if not progress.quiet:
                    done = "failed" if kind else f"{time.perf_counter() - self.start:.1f} s"
                    print(f" {done}", file=sys.stderr, flush=True)

        return _Step()


def cmd_new(args: argparse.Namespace) -> int:
    ruleset = rules.get(args.ruleset)
    path = Path(args.file)
    if path.exists() and not args.force:
        raise StoreError(f"{path} already exists; pick another name or add --force")
    if args.example:
        if ruleset.example is None:
            raise StoreError(f"the {ruleset.name} ruleset has no example game")
        tables, orders, settings = ruleset.example()
        turn = 2 if any(r.get("turn") for r in tables.get("War results", [])) else 1
        state = build_state(ruleset, tables, orders, turn=turn, settings=settings)
    else:
        import secrets

        state = build_state(ruleset, {}, [], settings={"game": path.stem,
                                                       "seed": secrets.token_hex(8)})
    write_new_workbook(ruleset, path, state)
    print(f"wrote {path}: a {'playable example' if args.example else 'blank'} "
          f"{ruleset.name} game. Open it, read the '{'How to write orders'}' tab, and fill it in.")
    return 0


def _sheet_store(args: argparse.Namespace):
    from sheetmaster.stores.gsheets import SheetsStore
    from sheetmaster.stores.gsheets_client import open_client, store_options

    return SheetsStore(args.sheet, open_client(args.credentials), **store_options())


def _store(args: argparse.Namespace, mode: Mode):
    """The game the command names: a Google Sheet (--sheet) or a workbook file."""
    if args.sheet:
        return _sheet_store(args)
    if not args.file:
        raise StoreError("name the game: a .xlsx file, or --sheet SPREADSHEET_ID")
    out = getattr(args, "out", None)
    store = XlsxStore(args.file, out=out, backup=mode is not Mode.CHECK)
    if mode is not Mode.CHECK and not args.dry_run and store.has_drawings():
        print("warning: this workbook has charts or images, which cannot be kept when it "
              "is rewritten", file=sys.stderr)
    return store


def _run(args: argparse.Namespace, mode: Mode) -> int:
    """check, resolve and nightly, on either store."""
    store = _store(args, mode)
    outcome = run_turn(store, mode, dry_run=getattr(args, "dry_run", False),
                       force=getattr(args, "force", False), seed=getattr(args, "seed", None),
                       progress=Progress(args.quiet).step)
    result, ruleset = outcome.result, outcome.ruleset
    if result is None:
        print(f"nothing to do: {outcome.waiting}")
        return 0
    print(f"turn {result.turn}: {len(result.results)} orders")
    print(format_results(result, CHECK_WORDS if mode is Mode.CHECK else None))
    if mode is Mode.CHECK:
        bad = sum(r.status is Status.REJECTED for r in result.results)
        print(f"{len(result.results)} orders checked, {bad} would be rejected.")
        return 0
    if not outcome.written:
        print("\nWhat would change, per player:")
        print(format_diff(ruleset, result))
        print("\n(dry run: nothing was written)")
        return 0
    report = Path(args.report) if args.report else store.report_path(result.turn)
    report.write_text(player_report(ruleset, result), encoding="utf-8")
    print(f"resolved turn {result.turn}; the game is now on turn {result.turn + 1}.")
    if getattr(store, "kept", None):
        print(f"the workbook as it was before the turn is kept at {store.kept}")
    print(f"turn report for the players: {report}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    return _run(args, Mode.CHECK)


def cmd_resolve(args: argparse.Namespace) -> int:
    return _run(args, Mode.RESOLVE)


def cmd_undo(args: argparse.Namespace) -> int:
    store = _store(args, Mode.CHECK)
    turn = undo_turn(store)
    print(f"undid turn {turn}: the game is back on turn {turn}, as it was before it was "
          f"resolved.")
    return 0


def cmd_nightly(args: argparse.Namespace) -> int:
    """The scheduled run: resolves only a due turn, exactly once."""
    return _run(args, Mode.SCHEDULED)


def cmd_init(args: argparse.Namespace) -> int:
    from sheetmaster.stores.google_auth import service_account_email
    from sheetmaster.stores.gsheets_init import plan_init, read_existing

    ruleset = rules.get(args.rules)
    store = _sheet_store(args)
    editors = list(args.editor or [])
    credentials = getattr(store.http, "auth", None)
    editors.append(service_account_email(credentials))
    with store.locked():
        existing = read_existing(store)
        plan = plan_init(store, ruleset, editors=editors, form_tab=args.form_tab,
                         existing=existing)
        store.apply(plan.requests, "laying out the sheet")
    print(f"laid out {args.sheet} for the {ruleset.name} rules.")
    if plan.added_tabs:
        print(f"  added tabs: {', '.join(plan.added_tabs)}")
    if plan.kept_tabs:
        print(f"  kept as they were: {', '.join(plan.kept_tabs)}")
    if plan.protected:
        print(f"  protected (GM and sheetmaster only): {', '.join(plan.protected)}")
    return 0


def cmd_golden(args: argparse.Namespace) -> int:
    import yaml

    from sheetmaster.testing.golden import capture_case

    state = XlsxStore(args.file).load()
    ruleset = ruleset_of(state)
    case = capture_case(ruleset, state, args.rule, seed=args.seed)
    text = yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=100)
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: check its expectations by the rules, then put it in "
          f"tests/golden/{ruleset.name}/")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    for name, ruleset in sorted(rules.available().items()):
        print(f"{name:12} {ruleset.title}")
        if args.verbose:
            for phase in ruleset.phases:
                print(f"    {phase.key}. {phase.title}")
    return 0


def _sheet_options(p: argparse.ArgumentParser, required: bool = False) -> None:
    p.add_argument("--sheet", required=required, metavar="SPREADSHEET_ID",
                   help="a Google Sheet's id (from its address) instead of a file")
    p.add_argument("--credentials", metavar="FILE",
                   help="a service account key file (default: SHEETMASTER_SERVICE_ACCOUNT_JSON, "
                        "SHEETMASTER_CREDENTIALS_FILE, or Application Default Credentials)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sheetmaster", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("new", help="write a new game workbook, blank or a playable example",
                       description="Write a new game workbook with every tab, headers, a "
                                   "'How to write orders' tab and dropdowns for order kinds.")
    p.add_argument("ruleset", help="which rules the game plays by (see 'sheetmaster rules')")
    p.add_argument("file", help="the .xlsx file to create")
    p.add_argument("--example", action="store_true", help="fill it with the example game")
    p.add_argument("--force", action="store_true", help="overwrite the file if it exists")
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("check", help="fill each order's result with 'ok' or why it would fail",
                       description="Check this turn's orders without resolving anything: each "
                                   "order row's result becomes 'ok' or 'would be rejected' with "
                                   "the reason, as things stand now.")
    p.add_argument("file", nargs="?", help="the game's .xlsx file (or use --sheet)")
    _sheet_options(p)
    p.add_argument("--out", help="write to this file instead of updating the game in place")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(run=cmd_check, dry_run=False)

    p = sub.add_parser("resolve", help="resolve the current turn and write the new state",
                       description="Resolve the current turn: every phase in order, a result "
                                   "and reason on every order row, every change and die in "
                                   "the Log tab, turn + 1. A backup of the workbook as it was "
                                   "is kept, and the file is replaced atomically.")
    p.add_argument("file", nargs="?", help="the game's .xlsx file (or use --sheet)")
    _sheet_options(p)
    p.add_argument("--dry-run", action="store_true",
                   help="print the results and what would change per player; write nothing")
    p.add_argument("--out", help="write the resolved game to this file; the original stays")
    p.add_argument("--report", help="where to write the players' turn report (markdown)")
    p.add_argument("--seed", type=int, help="dice seed to use instead of the game's (tests)")
    p.add_argument("--force", action="store_true", help="resolve even before the deadline")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(run=cmd_resolve)

    p = sub.add_parser("nightly", help="the scheduled run: resolve a Google Sheet's turn if due",
                       description="Resolve the game's turn only if its deadline has passed "
                                   "and the turn is not resolved yet; otherwise do nothing. "
                                   "Safe to run twice, late, or twice at once.")
    _sheet_options(p, required=True)
    p.add_argument("--dry-run", action="store_true", help="print what would happen only")
    p.add_argument("--report", help="where to write the players' turn report (markdown)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(run=cmd_nightly)

    p = sub.add_parser("init", help="lay out a Google Sheet for a new game",
                       description="Add the ruleset's tabs with headers, frozen header rows, "
                                   "dropdowns and a how-to tab to a Google Sheet; protect the "
                                   "state tabs so only the GM and the service account edit them. "
                                   "Tabs that already hold data are left alone.")
    _sheet_options(p, required=True)
    p.add_argument("--rules", required=True, help="which rules the game plays by")
    p.add_argument("--editor", action="append",
                   help="a GM's Google account e-mail allowed to edit the state tabs "
                        "(repeat for several)")
    p.add_argument("--form-tab", help="a linked Google Form's responses tab to read orders "
                                      "from (rows must carry a verified e-mail)")
    p.set_defaults(run=cmd_init)

    p = sub.add_parser("golden", help="turn this turn into a golden test case (YAML)",
                       description="Resolve the current turn in memory and write it as a "
                                   "golden test case: the tabs, orders, dice rolled, and the "
                                   "outcome as expectations. Nothing is written to the game.")
    p.add_argument("file", help="the game's .xlsx file")
    p.add_argument("--out", required=True, help="the .yaml file to write")
    p.add_argument("--rule", default="(quote the rule this case checks)",
                   help="the rule text the case checks, quoted from the rules")
    p.add_argument("--seed", type=int, help="dice seed to use instead of the game's")
    p.set_defaults(run=cmd_golden)

    p = sub.add_parser("undo", help="put the game back as it was before the last resolve",
                       description="Undo the last resolved turn: a workbook is restored from "
                                   "the backup taken before it; a Google Sheet gets back every "
                                   "cell the turn wrote, from the snapshot kept in its hidden "
                                   "'sheetmaster undo' tab.")
    p.add_argument("file", nargs="?", help="the game's .xlsx file (or use --sheet)")
    _sheet_options(p)
    p.set_defaults(run=cmd_undo, dry_run=False)

    p = sub.add_parser("rules", help="list the rulesets sheetmaster knows")
    p.add_argument("-v", "--verbose", action="store_true", help="list each ruleset's phases")
    p.set_defaults(run=cmd_rules)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except StateError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (StoreError, KeyError, CredentialsError) as exc:
        message = exc.args[0] if exc.args else str(exc)
        print(f"error: {redact(str(message))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; the game file was not changed", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

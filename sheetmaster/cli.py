"""The ``sheetmaster`` command."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sheetmaster import rules, values
from sheetmaster.engine import CHECK_WORDS, check, find_tab, resolve
from sheetmaster.model import GameState, Status
from sheetmaster.report import format_diff, format_results, player_report
from sheetmaster.ruleset import Ruleset
from sheetmaster.schema import StateError
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.xlsx import XlsxStore, locked
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.tabs import GAME_TAB
from sheetmaster.testing.builder import build_state
from sheetmaster.turns import deadline_problem

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


def _ruleset_of(state: GameState) -> Ruleset:
    tab = find_tab(state.tables, GAME_TAB)
    if tab is None:
        raise StoreError(f"the workbook has no '{GAME_TAB}' tab, so its ruleset is unknown "
                         f"(tabs: {', '.join(state.tables) or 'none'})")
    game = state.tables[tab]
    settings = {values.fold(values.text(r.get("setting", ""))): r.get("value")
                for r in game.to_dict("records")}
    name = values.text(settings.get("ruleset"))
    if not name:
        raise StoreError(f"tab '{GAME_TAB}' has no 'ruleset' setting")
    try:
        return rules.get(name)
    except KeyError as exc:
        raise StoreError(str(exc.args[0])) from None


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


def cmd_check(args: argparse.Namespace) -> int:
    store = XlsxStore(args.file)
    progress = Progress(args.quiet)
    with locked(store.path):
        with progress.step(f"reading {store.path}"):
            state = store.load()
        ruleset = _ruleset_of(state)
        with progress.step("checking orders"):
            result = check(ruleset, state)
        print(format_results(result, CHECK_WORDS))
        with progress.step(f"writing results to {args.out or store.path}"):
            store.save(ruleset, result, out=Path(args.out) if args.out else None, backup=False)
    bad = sum(r.status is Status.REJECTED for r in result.results)
    print(f"{len(result.results)} orders checked, {bad} would be rejected.")
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    store = XlsxStore(args.file)
    progress = Progress(args.quiet)
    with locked(store.path):
        with progress.step(f"reading {store.path}"):
            state = store.load()
        ruleset = _ruleset_of(state)
        with progress.step(f"resolving with the {ruleset.name} rules"):
            result = resolve(ruleset, state, seed=args.seed)
        problem = deadline_problem(result.before.meta)
        if problem and not args.force and not args.dry_run:
            raise StoreError(problem)
        print(f"turn {result.turn}: {len(result.results)} orders")
        print(format_results(result))
        if args.dry_run:
            print("\nWhat would change, per player:")
            print(format_diff(ruleset, result))
            print("\n(dry run: nothing was written)")
            return 0
        if store.has_drawings():
            print("warning: this workbook has charts or images, which cannot be kept when "
                  "it is rewritten", file=sys.stderr)
        out = Path(args.out) if args.out else store.path
        with progress.step(f"writing turn {result.turn + 1} to {out}"):
            kept = store.save(ruleset, result, out=out)
        report = Path(args.report) if args.report else \
            out.parent / f"{out.stem}-turn-{result.turn}-report.md"
        report.write_text(player_report(ruleset, result), encoding="utf-8")
    print(f"resolved turn {result.turn}; the game is now on turn {result.turn + 1}.")
    if kept:
        print(f"the workbook as it was before the turn is kept at {kept}")
    print(f"turn report for the players: {report}")
    return 0


def cmd_golden(args: argparse.Namespace) -> int:
    import yaml

    from sheetmaster.testing.golden import capture_case

    state = XlsxStore(args.file).load()
    ruleset = _ruleset_of(state)
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
    p.add_argument("file", help="the game's .xlsx file")
    p.add_argument("--out", help="write to this file instead of updating the game in place")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("resolve", help="resolve the current turn and write the new state",
                       description="Resolve the current turn: every phase in order, a result "
                                   "and reason on every order row, every change and die in "
                                   "the Log tab, turn + 1. A backup of the workbook as it was "
                                   "is kept, and the file is replaced atomically.")
    p.add_argument("file", help="the game's .xlsx file")
    p.add_argument("--dry-run", action="store_true",
                   help="print the results and what would change per player; write nothing")
    p.add_argument("--out", help="write the resolved game to this file; the original stays")
    p.add_argument("--report", help="where to write the players' turn report (markdown)")
    p.add_argument("--seed", type=int, help="dice seed to use instead of the game's (tests)")
    p.add_argument("--force", action="store_true", help="resolve even before the deadline")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(run=cmd_resolve)

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
    except (StoreError, KeyError) as exc:
        message = exc.args[0] if exc.args else str(exc)
        print(f"error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; the game file was not changed", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

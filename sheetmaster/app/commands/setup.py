"""new and init: a new game, in a workbook or laid out in a Google Sheet."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from sheetmaster import rules
from sheetmaster.app.commands.options import sheet_options, sheet_store
from sheetmaster.app.exits import Exit, UsageError
from sheetmaster.kit import fairness


def known_ruleset(name: str):
    """The ruleset a command line names; an unknown one is a usage error."""
    try:
        return rules.get(name)
    except KeyError as exc:
        raise UsageError(exc.args[0]) from None


def ruleset_names(**_: Any) -> list[str]:
    """What the shell completes where a command wants a ruleset (argcomplete's completer):
    their names, without importing one."""
    return rules.names()


def new_workbook_path(file: str) -> Path:
    """The file ``new`` writes: an .xlsx workbook, so named; any other name (x.csv, x.xlsm,
    no extension) is refused, since Excel or LibreOffice would open it as what its name says
    and find no such file."""
    path = Path(file)
    if path.suffix.casefold() != ".xlsx":
        raise UsageError(f"{path.name}: sheetmaster writes a new game as an .xlsx workbook; "
                         f"name it {path.with_suffix('.xlsx').name}")
    return path


def cmd_new(args: argparse.Namespace) -> int:
    from sheetmaster.engine.builder import build_state, example_game
    from sheetmaster.kit import values
    from sheetmaster.kit.tabs import DICE_COMMITMENT
    from sheetmaster.stores.xlsx_layout import write_new_workbook

    ruleset = known_ruleset(args.ruleset)
    path = new_workbook_path(args.file)
    if path.exists() and not args.force:
        raise UsageError(f"{path} already exists; pick another name or add --force")
    starters = {t.tab: t.starter_rows for t in ruleset.tables if t.starter_rows}
    tables, orders, settings, turn = starters, [], {"game": path.stem}, ruleset.first_turn
    secret = fairness.new_secret()
    if args.example:
        if ruleset.example is None:
            raise UsageError(f"the {ruleset.name} ruleset has no example game")
        tables, orders, settings = example_game(ruleset)
        turn = 2 if any(r.get("turn") for r in tables.get("War results", [])) else 1
        # An example's dice secret is public (it is in the ruleset's code): fine for a try.
        settings = dict(settings)
        secret = values.text(settings.pop("seed", "")) or secret
    if args.turn is not None:
        if args.example:
            raise UsageError("--turn starts a blank game on a later turn; an example game "
                             "starts where it starts")
        if args.turn < ruleset.first_turn:
            raise UsageError(f"--turn: a {ruleset.name} game's first turn is "
                             f"{ruleset.first_turn}")
        turn = args.turn
        settings["turn"] = turn
    settings.update(_round_and_stage(ruleset, args))
    first = int(settings.get("turn", turn))  # the turn the game starts on
    settings[DICE_COMMITMENT] = fairness.turn_dice(secret, first).commitment
    state = build_state(ruleset, tables, orders, turn=turn, settings=settings)
    write_new_workbook(ruleset, path, state)
    kept = fairness.secret_path(path)
    fairness.write_secret(kept, secret)
    print(f"wrote {path}: a {'playable example' if args.example else 'blank'} "
          f"{ruleset.name} game. Open it, read the 'How to write orders' tab, and fill it in.")
    print(f"its dice secret is in {kept}: keep that file, and never give it to the players "
          f"(share the workbook only)")
    if secret == fairness.EXAMPLE_SECRET:
        print(f"(an example's dice secret is the public {secret!r}, so anyone can compute its "
              f"dice: fine for a try; for a real game, run `sheetmaster new` without "
              f"--example)")
    return Exit.OK


def _round_and_stage(ruleset, args: argparse.Namespace) -> dict[str, Any]:
    """``--round`` and ``--stage``: where a blank game already under way stands in a ruleset
    whose rounds are resolved in stages (1800), with ``--turn``. Neither is in the turn's dice
    commitment (the turn number alone is), so the Game tab's may also be typed by hand."""
    given = {k: v for k, v in (("round", args.round), ("stage", args.stage)) if v is not None}
    if not given:
        return {}
    calendar = ruleset.calendar
    options = ", ".join(f"--{k}" for k in given)
    if not calendar.stages:
        raise UsageError(f"{options}: a {ruleset.name} game has no rounds resolved in stages")
    if args.turn is None or args.turn < 1:
        raise UsageError(f"{options} {'goes' if len(given) == 1 else 'go'} with --turn N (N "
                         f"from 1): the game's turn number")
    last = calendar.rounds_per_era * calendar.eras
    if "round" in given and not 1 <= given["round"] <= (last or given["round"]):
        raise UsageError(f"--round: a {ruleset.name} game's rounds are 1 to {last}")
    if "stage" in given and given["stage"] not in calendar.stages:
        raise UsageError(f"--stage: one of {', '.join(calendar.stages)}")
    return given


def cmd_init(args: argparse.Namespace) -> int:
    from sheetmaster.stores.google_auth import service_account_email
    from sheetmaster.stores.gsheets_client import ENDPOINT_ENV
    from sheetmaster.stores.gsheets_init import lay_out

    if args.repo:
        return cmd_init_repo(args)
    if args.pin:
        raise UsageError("--pin goes with --repo")
    if not args.sheet or not args.rules:
        raise UsageError("init lays out a Google Sheet (--sheet ID --rules RULES) or writes a "
                         "game repository (--repo DIR)")
    ruleset = known_ruleset(args.rules)
    made = not os.environ.get(fairness.SECRET_ENV, "").strip()
    shared = fairness.new_secret() if made else fairness.read_secret()
    secret = fairness.for_sheet(shared, args.sheet)
    store = sheet_store(args.sheet, args.credentials, secret)
    job = args.service_account or service_account_email(getattr(store.http, "auth", None))
    if not job and not os.environ.get(ENDPOINT_ENV, "").strip():
        raise UsageError("name the service account the nightly job runs as with "
                         "--service-account EMAIL: init runs with your own Google account, and "
                         "the job could not write the tabs init protects unless its account "
                         "is one of their editors")
    if args.orders_sheet and args.orders_sheet.strip() == args.sheet:
        raise UsageError("--orders-sheet must name a second spreadsheet, not the game's own")
    editors = [*(args.editor or []), job]
    plans = lay_out(store, ruleset, editors, secret, form_tab=args.form_tab,
                    orders_sheet=args.orders_sheet, new_secret=made)
    print(f"laid out {args.sheet} for the {ruleset.name} rules.")
    for where, plan in plans:
        if plan.added_tabs:
            print(f"  {where}added tabs: {', '.join(plan.added_tabs)}")
        if plan.kept_tabs:
            print(f"  {where}kept as they were: {', '.join(plan.kept_tabs)}")
        if plan.protected:
            print(f"  {where}protected (GM and sheetmaster only): {', '.join(plan.protected)}")
        print(f"  {where}bound to the game (runs read these tabs, whatever other tabs are "
              f"named): {', '.join(plan.bound)}")
        for note in plan.notes:
            print(f"  note: {note}")
    if made:
        print(f"\nthe game's dice secret (shown once; players must never see it):\n  {shared}\n"
              f"store it as the secret {fairness.SECRET_ENV} of the game's GitHub environment "
              f"(Settings -> Environments) and in your own {fairness.SECRET_ENV} to resolve, "
              f"check or undo from your machine")
    return Exit.OK


def cmd_init_repo(args: argparse.Namespace) -> int:
    from sheetmaster.app.gamerepo import write_repo

    given = [f"--{o.replace('_', '-')}" for o in ("sheet", "rules", "editor",
                                                  "service_account", "form_tab")
             if getattr(args, o)]
    if given:
        raise UsageError(f"--repo writes a game repository; {', '.join(given)} lay out a "
                         f"sheet: run init once for each")
    folder = Path(args.repo)
    done = write_repo(folder, args.pin)
    print(f"game repository in {folder}:")
    for path in done.written:
        print(f"  wrote {path.relative_to(folder).as_posix()}")
    for path in done.kept:
        print(f"  kept {path.relative_to(folder).as_posix()} as it was")
    print(f"the workflow installs {done.pin} and runs on the schedule '{done.cron}' (UTC).\n"
          f"Next: list your games in games.toml, add their secrets to the repository "
          f"(README.md says how), run `sheetmaster init --repo {folder}` again when games.toml "
          f"names new secrets, and commit.")
    return Exit.OK


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "new", parents=[common], help="write a new game workbook, blank or a playable example",
        description="Write a new game workbook with every tab, headers, a 'How to write "
                    "orders' tab and dropdowns for order kinds.")
    p.add_argument("ruleset", help="which rules the game plays by (see 'sheetmaster rules')"
                   ).completer = ruleset_names  # type: ignore[attr-defined]
    p.add_argument("file", help="the .xlsx file to create")
    p.add_argument("--example", action="store_true", help="fill it with the example game")
    p.add_argument("--turn", type=int, metavar="N",
                   help="a game already under way: the blank game is on turn N (the Game "
                        "tab's turn, and turn N's dice commitment)")
    p.add_argument("--round", type=int, metavar="R",
                   help="with --turn, in a ruleset whose rounds are resolved in stages (1800): "
                        "the round the game is in")
    p.add_argument("--stage", metavar="STAGE",
                   help="with --turn, in such a ruleset: the stage to be resolved next (1800: "
                        "draft, turns or war)")
    p.add_argument("--force", action="store_true", help="overwrite the file if it exists")
    p.set_defaults(run=cmd_new)

    p = sub.add_parser(
        "init", parents=[common],
        help="lay out a Google Sheet for a new game, or write a game repository",
        description="Add the ruleset's tabs with headers, frozen header rows, dropdowns and a "
                    "how-to tab to a Google Sheet, and turn 1's dice commitment; protect every "
                    "tab but the players' orders so only the GM and the service account edit "
                    "them. Tabs that already hold data are kept (and protected). Unless "
                    "SHEETMASTER_DICE_SECRET is set, makes the game's dice secret and prints "
                    "it once. With --repo DIR instead: write what a repository of games "
                    "needs and nothing else (games.toml, the nightly workflow, a README), "
                    "or write its workflow again from its games.toml.")
    sheet_options(p)
    p.add_argument("--rules", help="which rules the game plays by"
                   ).completer = ruleset_names  # type: ignore[attr-defined]
    p.add_argument("--repo", metavar="DIR",
                   help="write a game repository into DIR: games.toml, README.md and "
                        ".gitignore if missing, and .github/workflows/nightly.yml from "
                        "games.toml (always; its schedule is kept)")
    p.add_argument("--pin", metavar="REQUIREMENT",
                   help="with --repo: the sheetmaster the workflow installs, as pip writes it "
                        "(default: this version, from sheetmaster's repository at its tag)")
    p.add_argument("--editor", action="append",
                   help="a GM's Google account e-mail allowed to edit the state tabs "
                        "(repeat for several)")
    p.add_argument("--service-account", metavar="EMAIL",
                   help="the service account the nightly job runs as (default: the one of the "
                        "credentials used); it is made an editor of every protected tab")
    p.add_argument("--form-tab", help="a linked Google Form's responses tab to read orders "
                                      "from (rows must carry a verified e-mail); init "
                                      "protects it (the Form still writes to it)")
    p.add_argument("--orders-sheet", metavar="SPREADSHEET_ID",
                   help="a second spreadsheet, shared with the GM and the service account only, "
                        "to hold the orders tab (or, with --form-tab, the Form's responses), so "
                        "players never see each other's orders")
    p.set_defaults(run=cmd_init)

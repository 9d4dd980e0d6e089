"""fake-sheets serve: the fake Google Sheets API on 127.0.0.1, to try the Sheets mode offline.

No Google account is needed: every spreadsheet lives in this process's memory and is gone
when it stops. Other sheetmaster commands reach it through ``SHEETMASTER_SHEETS_ENDPOINT``,
with the random token it prints in ``SHEETMASTER_SHEETS_TOKEN``: it answers only requests
that carry that token and are addressed to 127.0.0.1 or localhost, so a web page open in the
user's browser can neither read nor edit the game it holds.
"""

from __future__ import annotations

import argparse
import secrets
import signal
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sheetmaster.app.exits import Exit, UsageError
from sheetmaster.kit import fairness
from sheetmaster.stores.gsheets_client import ENDPOINT_ENV, TOKEN_ENV
from sheetmaster.testing.commands import fake_sheets_edit


def cmd_serve(args: argparse.Namespace) -> int:
    from sheetmaster.testing.fakesheets import FakeSheetsServer
    from sheetmaster.testing.fakesheets.upload import upload_workbook

    if args.source and not Path(args.source).exists():
        raise UsageError(f"{args.source} does not exist")
    server = FakeSheetsServer(port=args.port, token=secrets.token_urlsafe(32))
    try:
        server.start()
    except OSError as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror}") from None
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        exports = [f"export {ENDPOINT_ENV}={server.url}", f"export {TOKEN_ENV}={server.token}"]
        if args.source:
            sid = upload_workbook(server, args.source)
            what = f"holding {args.source}"
            then = f"sheetmaster check --sheet {sid}"
            kept = _recommit(server, sid, Path(args.source))
            what += _due_now(server, sid)
            if kept is not None:
                exports.append(f"export {fairness.SECRET_ENV}=\"$(cat {kept})\"")
        else:
            sid = server.create_spreadsheet(title=args.title)
            what = "empty"
            then = f"sheetmaster init --sheet {sid} --rules claims"
        print(f"fake Google Sheets API listening on {server.url} (Ctrl-C stops it; its "
              f"sheets live in memory only)")
        print(f"spreadsheet id: {sid} ({what})")
        print("in another terminal:")
        for line in exports:
            print(f"  {line}")
        print(f"  {then}", flush=True)
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    print("stopped; the fake's sheets are gone.")
    return Exit.OK


def _recommit(server: Any, sid: str, workbook: Path) -> Path | None:
    """A workbook's game on a sheet rolls the sheet's dice (its secret bound to the sheet):
    publish the commitment of those, and bind the game to its tabs as ``init`` does. Returns
    the workbook's secret file (None if none)."""
    from sheetmaster.testing.fakesheets.upload import bind_game

    try:
        secret = fairness.read_secret(workbook, env={})
    except fairness.DiceSecretError:
        return None
    bind_game(server, sid, fairness.for_sheet(secret, sid))
    rows = server.values(sid, "Game")
    for number, row in enumerate(rows[1:], start=2):
        if row and str(row[0]).strip().casefold() == "dice commitment":
            turn = next((r[1] for r in rows if r and str(r[0]).strip() == "turn"), 1)
            dice = fairness.turn_dice(fairness.for_sheet(secret, sid), int(float(turn)))
            server.set_values(sid, f"Game!B{number}", [[dice.commitment]])
    return fairness.secret_path(workbook)


def _due_now(server: Any, sid: str, now: datetime | None = None) -> str:
    """A scheduled run resolves only a turn whose deadline has passed, and the example games
    have none: a game without one gets a deadline a minute ago (and a turn length of a day
    if it has none), so that ``nightly`` resolves its turn at once and the next one a day
    later. Returns what was set, for the line that names the spreadsheet ('' if nothing)."""
    rows = server.values(sid, "Game")
    where = {str(row[0]).strip().casefold(): (number, row[1] if len(row) > 1 else "")
             for number, row in enumerate(rows[1:], start=2) if row}
    if "deadline" not in where or str(where["deadline"][1]).strip():
        return ""
    zone = str(where.get("timezone", (0, ""))[1]).strip() or "UTC"
    try:
        tz: Any = ZoneInfo(zone)
    except (ValueError, OSError):
        return ""  # a bad zone: the run says so, naming the tab and row
    moment = ((now or datetime.now(timezone.utc)).astimezone(tz) - timedelta(minutes=1))
    deadline = moment.strftime("%Y-%m-%d %H:%M")
    server.set_values(sid, f"Game!B{where['deadline'][0]}", [[deadline]])
    length = where.get("turn length (hours)")
    if length and not str(length[1]).strip():
        server.set_values(sid, f"Game!B{length[0]}", [[24]])
    return f"; its turn is due: deadline set to {deadline} {zone}"


def register(sub: Any, common: argparse.ArgumentParser) -> None:
    group = sub.add_parser(
        "fake-sheets", parents=[common], help="a fake Google Sheets API to try the Sheets mode "
                                              "offline",
        description="A fake of the Google Sheets API on 127.0.0.1, which the real gspread "
                    "client talks to: try 'sheetmaster --sheet' commands with no Google "
                    "account. The test suite uses the same fake.")
    actions = group.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = actions.add_parser(
        "serve", parents=[common], help="serve the fake until Ctrl-C",
        description=f"Serve the fake Sheets API until Ctrl-C, with one spreadsheet in it "
                    f"(empty, or a workbook's tabs with --from), and print the endpoint and "
                    f"spreadsheet id to use: set {ENDPOINT_ENV} to the endpoint and "
                    f"{TOKEN_ENV} to the random token it prints (it answers no request "
                    f"without it), and pass --sheet ID to check, resolve, nightly, init or "
                    f"undo.")
    p.add_argument("--port", type=int, default=0,
                   help="the port to listen on (default: any free one)")
    p.add_argument("--from", dest="source", metavar="GAME_XLSX",
                   help="start the spreadsheet with this workbook's tabs")
    p.add_argument("--title", default="sheetmaster game",
                   help="the empty spreadsheet's title (without --from)")
    p.set_defaults(run=cmd_serve)
    fake_sheets_edit.register(actions, common)

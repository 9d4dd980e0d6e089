"""fake-sheets serve: the fake Google Sheets API on 127.0.0.1, to try the Sheets mode offline.

No Google account is needed: every spreadsheet lives in this process's memory and is gone
when it stops. Other sheetmaster commands reach it through ``SHEETMASTER_SHEETS_ENDPOINT``.
"""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path
from typing import Any

from sheetmaster import fairness
from sheetmaster.exits import Exit, UsageError
from sheetmaster.stores.gsheets_client import ENDPOINT_ENV


def cmd_serve(args: argparse.Namespace) -> int:
    from sheetmaster.testing.fakesheets import FakeSheetsServer
    from sheetmaster.testing.fakesheets.upload import upload_workbook

    if args.source and not Path(args.source).exists():
        raise UsageError(f"{args.source} does not exist")
    server = FakeSheetsServer(port=args.port)
    try:
        server.start()
    except OSError as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror}") from None
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        exports = [f"export {ENDPOINT_ENV}={server.url}"]
        if args.source:
            sid = upload_workbook(server, args.source)
            what = f"holding {args.source}"
            then = f"sheetmaster check --sheet {sid}"
            kept = _recommit(server, sid, Path(args.source))
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
                    f"spreadsheet id to use: set {ENDPOINT_ENV} to the endpoint and pass "
                    f"--sheet ID to check, resolve, nightly, init or undo.")
    p.add_argument("--port", type=int, default=0,
                   help="the port to listen on (default: any free one)")
    p.add_argument("--from", dest="source", metavar="GAME_XLSX",
                   help="start the spreadsheet with this workbook's tabs")
    p.add_argument("--title", default="sheetmaster game",
                   help="the empty spreadsheet's title (without --from)")
    p.set_defaults(run=cmd_serve)

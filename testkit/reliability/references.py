"""Clean references: the game before and after one resolve with nothing going wrong,
which every fault, kill and concurrency run is compared with.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from sheetmaster.app.runs import Mode, run_turn
from sheetmaster.kit.fairness import secret_path, write_secret
from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.rules.claims import RULESET
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.testing.fakesheets import FakeSheetsServer
from testkit.reliability.child import (
    DONE,
    SHEETS_LATENCY,
    CliChild,
    _folder,
    sheets_command,
    sheets_env,
    xlsx_command,
)
from testkit.reliability.game import (
    SEED,
    Snapshot,
    digest,
    sheet_snapshot,
    sheets_store,
    upload,
    xlsx_snapshot,
)

# -- references ----------------------------------------------------------------------------


@dataclass
class Reference:
    """A game before and after one clean resolve, and how long the CLI took from being told
    to go to saying it was done (kills land at random moments within that)."""

    old: Snapshot
    new: Snapshot
    duration: float = 0.0
    pristine: Path | None = None  # the .xlsx store's untouched game
    new_digest: str = ""
    #: the game's dice secret, given to every run beside the seed (a ruleset that seals
    #: its secrets, 1800, cannot run without it); None: runs have the seed alone
    secret: str | None = None


def keep_secret(game: Path, secret: str | None) -> None:
    """The dice secret beside a workbook, where ``sheetmaster resolve`` reads it."""
    if secret is not None:
        write_secret(secret_path(game), secret)


def xlsx_reference(root: Path, state: GameState, ruleset: Ruleset = RULESET,
                   secret: str | None = None) -> Reference:
    """The game (of ``ruleset``: claims unless told) as a workbook, and the clean
    ``sheetmaster resolve`` of it (a child process, as in the kill runs); ``secret``: its
    dice secret, kept beside each copy of the workbook."""
    root.mkdir(parents=True, exist_ok=True)
    pristine = root / "pristine.xlsx"
    write_new_workbook(ruleset, pristine, state)
    work = root / "reference"
    work.mkdir(exist_ok=True)
    game = work / "game.xlsx"
    shutil.copy2(pristine, game)
    keep_secret(game, secret)
    child = CliChild(xlsx_command(game))
    child.ready()
    started = child.go()
    done, out = child.until(DONE)
    code, rest, err = child.wait()
    if code != 0 or DONE not in out:
        raise RuntimeError(f"the reference resolve failed ({code}): {out}{rest}{err}")
    return Reference(xlsx_snapshot(pristine), xlsx_snapshot(game), done - started,
                     pristine, digest(game), secret)


def sheets_reference(server: FakeSheetsServer, state: GameState, root: Path) -> Reference:
    """The game in a spreadsheet on the fake, and the clean ``sheetmaster resolve --sheet``
    of it (a child process working in ``root``, as in the kill runs)."""
    sid = upload(server, state)
    old = sheet_snapshot(server, sid)
    latency, server.latency = server.latency, SHEETS_LATENCY
    try:
        child = CliChild(sheets_command(sid), env=sheets_env(server), cwd=_folder(root))
        child.ready()
        started = child.go()
        done, out = child.until(DONE)
        code, rest, err = child.wait()
        server.wait_idle()
    finally:
        server.latency = latency
    if code != 0 or DONE not in out:
        raise RuntimeError(f"the reference resolve failed ({code}): {out}{rest}{err}")
    return Reference(old, sheet_snapshot(server, sid), done - started)


def in_process_reference(server: FakeSheetsServer, state: GameState,
                         secret: str | None = None) -> Reference:
    """The clean resolve through run_turn (as the fault runs do), no child process."""
    sid = upload(server, state)
    old = sheet_snapshot(server, sid)
    run_turn(sheets_store(server, sid), Mode.RESOLVE, seed=SEED, secret=secret)
    return Reference(old, sheet_snapshot(server, sid), secret=secret)

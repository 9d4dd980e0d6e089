"""``sheetmaster verify``: anyone can check that a turn's dice are the committed ones.

From what the sheet shows every player, for a resolved turn N:

1. the Log has the turn's ``dice`` line (a turn resolved with a seed given by hand has none:
   nothing then shows its dice were not chosen, which fails);
2. the seed and salt it reveals hash to the commitment it names, and that commitment is every
   one published before the deadline (the Log of turn N-1, the Game tab before the turn when
   that is at hand, and the one the player noted); for the last turn, the Game tab shows the
   next turn's commitment the Log published;
3. every die of turn N in the Log, in order, is what :class:`~sheetmaster.kit.dice.Dice` rolls
   from that seed (the same code the resolve ran, so nothing is reimplemented here);
4. given the state before the turn (a workbook's backup, the Google Sheet's undo snapshot,
   or a copy a player kept), resolving the turn again with that seed gives the very same Log
   and, for the last turn, the very same sheet (numbers compared by value: 170 is 170.0).

The dice secret is not needed: it only makes the seeds; a revealed seed is all that checks.
A turn for which no commitment was published anywhere (an old game's first turn with
committed dice, or the first after a new secret) is said to be so, not failed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd

from sheetmaster.app.report import one_line
from sheetmaster.app.runs import ruleset_of
from sheetmaster.engine.turn import find_tab, orders_elsewhere, prepare, resolve
from sheetmaster.kit import values
from sheetmaster.kit.dice import Dice
from sheetmaster.kit.fairness import RevealedDice, commitment, parse_dice_line
from sheetmaster.kit.model import GameState
from sheetmaster.kit.sealed import SecretNeeded
from sheetmaster.kit.tabs import (
    DICE_COMMITMENT,
    GAME_TAB,
    LOG_TAB,
    ORDERS_SHEET,
    all_tables,
    game_settings,
    log_rows,
)
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets_undo import UNDO_TAB, parse_snapshot, tables_before


@dataclass
class Verification:
    """The checks made on one turn: (passed: True / failed: False / not possible: None)."""

    turn: int
    checks: list[tuple[bool | None, str]] = field(default_factory=list)
    #: False when no commitment to the turn's dice was published anywhere to check against.
    committed: bool = True

    def add(self, passed: bool | None, text: str) -> None:
        self.checks.append((passed, text))

    @property
    def failed(self) -> bool:
        return any(passed is False for passed, _ in self.checks)

    def lines(self) -> list[str]:
        words = {True: "ok", False: "FAILED", None: "--"}
        return [f"  {words[passed]:6} {one_line(text)}" for passed, text in self.checks]


def _log(state: GameState) -> pd.DataFrame:
    name = find_tab(state.tables, LOG_TAB)
    if name is None:
        raise StoreError(f"the game has no '{LOG_TAB}' tab")
    df = state.tables[name]
    df = df.rename(columns={c: values.fold(str(c)) for c in df.columns})
    return df


def _turn_rows(log: pd.DataFrame, turn: int) -> pd.DataFrame:
    turns = [_whole(v) for v in log["turn"].tolist()] if "turn" in log.columns else []
    return log[[t == turn for t in turns]]


def _whole(value: Any) -> int | None:
    try:
        return values.whole_number(value)
    except values.BadValue:
        return None


def _lines(log: pd.DataFrame, turn: int, event: str) -> list[str]:
    """The details of turn ``turn``'s Log lines of this event ('dice', 'turn')."""
    rows = _turn_rows(log, turn)
    return [values.text(text) for kind, text in zip(rows.get("event", []),
                                                    rows.get("details", []))
            if values.text(kind) == event]


def _revealed(log: pd.DataFrame, turn: int) -> RevealedDice | None:
    lines = _lines(log, turn, "dice")
    return parse_dice_line(lines[0]) if len(lines) == 1 else None


_TURN_SEED = re.compile(r"dice seed (\d+)")


def _published(log: pd.DataFrame, turn: int, before: GameState | None,
               seen: str | None) -> list[tuple[str, str]]:
    """Every commitment to turn ``turn``'s dice published before its deadline, with where:
    the Log's dice line of the turn before, the Game tab before the turn, the player's note."""
    published = []
    earlier = _revealed(log, turn - 1)
    if earlier is not None:
        published.append((earlier.next_commitment, f"the Log of turn {turn - 1}"))
    if before is not None and game_settings(before)["turn"] == turn:
        shown = values.text(game_settings(before).get(DICE_COMMITMENT))
        if shown:
            published.append((shown.casefold(), "the Game tab before the turn"))
    if seen:
        published.append((seen.strip().casefold(), "the commitment you noted"))
    return published


def verify_turn(state: GameState, *, turn: int | None = None, before: GameState | None = None,
                before_from: str = "", commitment_seen: str | None = None,
                secret: str | None = None) -> Verification:
    """Check turn ``turn`` (default: the last resolved) of the game in ``state``. ``secret``
    (the GM's): draws only some players may see can then be made again too."""
    ruleset = ruleset_of(state)
    current = game_settings(state)["turn"]
    turn = current - 1 if turn is None else turn
    first = 0 if ruleset.calendar.setup_turn else 1  # a setup turn is turn 0
    if not first <= turn < current:
        raise StoreError(f"turn {turn} has not been resolved (the game is on turn {current})")
    report = Verification(turn)
    log = _log(state)
    published = _published(log, turn, before, commitment_seen)
    revealed = _revealed(log, turn)
    if revealed is None:
        _no_dice(report, log, turn, published)
        return report
    _check_commitment(report, state, revealed, turn, current, published)
    if revealed.seed >= 2**64:
        report.add(False, f"{revealed.seed} cannot be a dice seed (they are 64-bit numbers)")
        return report
    _check_turn_line(report, log, turn, revealed.seed)
    _replay(report, _turn_rows(log, turn), revealed.seed)
    if before is not None and orders_elsewhere(before):
        report.add(None, f"turn {turn}'s orders are in the GM's own orders spreadsheet (the "
                         f"Game tab's '{ORDERS_SHEET}'), which players cannot open, so the "
                         f"turn cannot be resolved again from the shared one")
    elif before is not None:
        _re_resolve(report, ruleset, state, before, before_from, revealed, turn, current,
                    secret)
    else:
        report.add(None, "the state before the turn is not at hand, so the turn was not "
                         "resolved again (give it with --before FILE)")
    return report


def _no_dice(report: Verification, log: pd.DataFrame, turn: int,
             published: list[tuple[str, str]]) -> None:
    """The Log has no single readable ``dice`` line for the turn: its dice cannot be shown to
    be the committed seed's (a seed given by hand, a line removed or added), which fails."""
    lines = _lines(log, turn, "dice")
    seeds = [m[1] for m in map(_TURN_SEED.search, _lines(log, turn, "turn")) if m]
    used = f" (the Log's turn line names seed {seeds[0]})" if seeds else ""
    if len(lines) > 1:
        report.add(False, f"the Log has {len(lines)} 'dice' lines for turn {turn}; a resolve "
                          f"writes one")
    elif lines:
        report.add(False, f"the Log's 'dice' line for turn {turn} cannot be read: "
                          f"{lines[0]}")
    else:
        report.add(False, f"the Log has no 'dice' line for turn {turn}, so nothing shows its "
                          f"dice{used} come from a committed seed: it was resolved with a seed "
                          f"given by hand (--seed), by a sheetmaster without commitments, or "
                          f"the line was removed")
    for shown, where in published:
        report.add(False, f"{where} published the commitment {shown} for turn {turn}'s "
                          f"dice, and nothing in the Log reveals that seed")


def _check_commitment(report: Verification, state: GameState, revealed: RevealedDice,
                      turn: int, current: int, published: list[tuple[str, str]]) -> None:
    made = commitment(turn, revealed.seed, revealed.salt)
    report.add(made == revealed.commitment,
               f"seed {revealed.seed} and salt {revealed.salt} hash to {made} "
               f"(SHA-256 of 'sheetmaster dice {turn} {revealed.seed} {revealed.salt}'); the "
               f"Log says the commitment was {revealed.commitment}")
    for shown, where in published:
        report.add(shown.casefold() == made, f"{where} published {shown}")
    if not published:
        report.committed = revealed.published
        report.add(None, "the resolve says the commitment was published before the deadline "
                         "(give the one you saw with --commitment to compare)"
                   if revealed.published else
                   f"no commitment to turn {turn}'s dice was published before its deadline "
                   f"(a game's first turn with committed dice, or the first after a new dice "
                   f"secret): its seed follows from the secret, but nothing shows it was not "
                   f"chosen; the next turns' are committed")
    if turn == current - 1:
        game = game_settings(state)
        shown = (values.text(game.get("last dice seed")), values.text(game.get("last dice salt")))
        report.add(shown == (str(revealed.seed), revealed.salt),
                   "the Game tab's 'last dice seed' and 'last dice salt' are the revealed ones")
        _check_next(report, values.text(game.get(DICE_COMMITMENT)).casefold(),
                    revealed.next_commitment, turn + 1)


def _check_next(report: Verification, shown: str, logged: str, turn: int) -> None:
    """The Game tab shows the commitment to the next turn's dice that the Log published."""
    if not shown:
        report.add(None, f"the Game tab shows no commitment to turn {turn}'s dice; the Log "
                         f"published {logged} (note it: verify turn {turn} with --commitment)")
        return
    report.add(shown == logged,
               f"the Game tab shows {shown} as turn {turn}'s dice commitment"
               + ("" if shown == logged else f", but the Log published {logged}: the "
                                             f"commitment was replaced after the resolve"))


def _check_turn_line(report: Verification, log: pd.DataFrame, turn: int, seed: int) -> None:
    """The Log's turn line names the revealed seed."""
    seeds = [m[1] for m in map(_TURN_SEED.search, _lines(log, turn, "turn")) if m]
    if seeds != [str(seed)]:
        report.add(False, f"the Log's turn line names dice seed {', '.join(seeds) or 'none'}, "
                          f"not the revealed {seed}")


def _replay(report: Verification, rows: pd.DataFrame, seed: int) -> None:
    """Every draw of the turn in the Log, in order, against the draws the seed gives: a die
    (or a chance, a pick) must show the value :class:`Dice` draws; a public shuffle of N
    items is drawn again (its order is not in the Log), so the draws after it line up."""
    dice = Dice(seed)
    count = 0
    for kind, die, roll, details in zip(rows.get("event", []), rows.get("die", []),
                                        rows.get("roll", []), rows.get("details", [])):
        sides_text = values.text(die)
        if not sides_text:
            continue
        count += 1
        sides, value = _whole(sides_text.lstrip("dD")), _whole(roll)
        if sides and values.text(kind) == "shuffle":
            dice.shuffle(range(sides), "", "verify", quiet=True)
            continue
        rolled = dice.roll(sides, "", "verify") if sides else None
        if rolled is None or rolled != value:
            report.add(False, f"draw {count} ({values.text(details)}) shows "
                              f"{values.text(roll)}, but seed {seed} draws {rolled} on a "
                              f"{sides_text}")
            return
    report.add(True, f"all {count} draws of the turn in the Log follow from seed {seed}")


def _re_resolve(report: Verification, ruleset: Any, state: GameState, before: GameState,
                before_from: str, revealed: RevealedDice, turn: int, current: int,
                secret: str | None) -> None:
    if game_settings(before)["turn"] != turn:
        report.add(False, f"the state before the turn ({before_from}) is of turn "
                          f"{game_settings(before)['turn']}, not {turn}")
        return
    try:
        again = resolve(ruleset, before, seed=revealed.seed, secret=secret)
    except SecretNeeded:
        if secret:
            raise
        report.add(None, f"turn {turn} plays cards sealed with the dice secret (a hand of "
                         f"cards), so it cannot be resolved again without it (the GM can: "
                         f"verify with the secret)")
        return
    private = sum(1 for e in again.events if e.sides and not e.public)
    if private and not secret:
        report.add(None, f"turn {turn} has {private} draws only some players may see: they "
                         f"come from the dice secret, not the revealed seed, so the turn cannot "
                         f"be resolved again without it (the GM can: verify with the secret)")
        return
    sheet_rows = _turn_rows(_log(state), turn)
    redone = _log(GameState({LOG_TAB: log_rows(pd.DataFrame(), turn, again.events)}, {}))
    kept = [c for c in ("phase", "player", "event", "details", "die", "roll")]
    mine = [tuple(_plain(v) for v in r) for r in sheet_rows[kept].itertuples(index=False)
            if values.text(r[2]) != "dice"]
    theirs = [tuple(_plain(v) for v in r) for r in redone[kept].itertuples(index=False)]
    report.add(mine == theirs, f"resolving turn {turn} again from the state before it "
                               f"({before_from}) with seed {revealed.seed} gives "
                               f"{'the same' if mine == theirs else 'a different'} Log "
                               f"({len(theirs)} lines)")
    if turn == current - 1:
        differences = _differences(ruleset, state, again.after, secret)
        report.add(not differences, "and the same sheet" if not differences else
                   f"but the sheet differs in {len(differences)} cells (a later edit by the "
                   f"GM, or a turn not resolved as the rules say), e.g. "
                   f"{'; '.join(differences[:3])}")


def _plain(value: Any) -> str:
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    return values.text(value)


def same_cell(was: Any, value: Any) -> bool:
    """Two cells hold the same: numbers by value (170 is 170.0; 0.1 is exactly 0.1, not
    0.1000001), anything else as text."""
    a, b = _number(was), _number(value)
    if a is not None and b is not None:
        return a == b
    return _plain(was) == _plain(value)


def _number(value: Any) -> Decimal | None:
    """A number cell's exact value (a float through its shortest spelling); None if the cell
    holds no number."""
    if hasattr(value, "item") and not isinstance(value, Decimal):
        value = value.item()  # a numpy scalar
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        return None
    if isinstance(value, float):
        return Decimal(repr(value)) if math.isfinite(value) else None
    number = Decimal(value)
    return number if number.is_finite() else None


def _differences(ruleset: Any, state: GameState, after: GameState,
                 secret: str | None) -> list[str]:
    """Cells of sheetmaster's columns whose value in the sheet (read as the engine reads it)
    is not the re-resolved one."""
    shown = prepare(ruleset, state, secret).state.tables
    out = []
    for table in all_tables(ruleset):
        sheet, expected = shown.get(table.tab), after.tables.get(table.tab)
        if table.tab in (GAME_TAB, LOG_TAB) or sheet is None or expected is None:
            continue
        absent = set(sheet.attrs.get("absent", ()))
        for column in [c.name for c in table.columns if c.owned and c.name not in absent]:
            if column not in expected.columns or column not in sheet.columns:
                continue
            cells = sheet[column].reindex(expected.index).tolist()
            for row, was, value in zip(expected.index.tolist(), cells,
                                       expected[column].tolist()):
                if not same_cell(was, value):
                    out.append(f"tab '{table.tab}', row {row}, column '{column}': the sheet "
                               f"has {values.show(was)}, the rules give {values.show(value)}")
    return out


# -- the command -------------------------------------------------------------------------------

def state_before(state: GameState, turn: int, *, undo_rows: list[list[Any]] | None = None,
                 backup: Path | None = None, given: Path | None = None
                 ) -> tuple[GameState | None, str]:
    """The game as it was before ``turn`` and where that came from: a workbook the player
    gives, the workbook's backup, or the undo snapshot (a Google Sheet's hidden tab, also in
    a workbook downloaded from it) when it is of that turn."""
    from sheetmaster.stores.xlsx import XlsxStore

    if given is not None:
        return XlsxStore(given).load(), str(given)
    if backup is not None and backup.exists():
        return XlsxStore(backup).load(), f"the backup {backup.name}"
    tab = find_tab(state.tables, UNDO_TAB)
    if undo_rows is None and tab is not None:
        df = state.tables[tab]
        undo_rows = [list(df.columns), *df.values.tolist()]
    if not undo_rows:
        return None, ""
    snapshot = parse_snapshot(undo_rows)
    if snapshot.turn != turn:
        return None, ""
    tables = {name: df for name, df in state.tables.items() if name != tab}
    return GameState(tables_before(tables, snapshot), dict(state.meta)), \
        f"the undo snapshot in the '{UNDO_TAB}' tab"


def run(args: Any, store: Any, secret: str | None = None) -> int:
    """``sheetmaster verify``: print the checks; 0 if none failed, 1 if one did. ``secret``:
    the GM's, if at hand (players verify without it)."""
    from sheetmaster.stores.xlsx import XlsxStore, backup_path

    if isinstance(store, XlsxStore):
        state, undo_rows = store.load(), None
    else:
        state = store.look()
        undo_rows = store.raw.get(UNDO_TAB)
    turn = args.turn if args.turn is not None else game_settings(state)["turn"] - 1
    backup = backup_path(store.path, turn) if isinstance(store, XlsxStore) else None
    before, where = state_before(state, turn, undo_rows=undo_rows, backup=backup,
                                 given=Path(args.before) if args.before else None)
    result = verify_turn(state, turn=turn, before=before, before_from=where,
                         commitment_seen=args.commitment, secret=secret)
    print(f"turn {result.turn}:")
    print("\n".join(result.lines()))
    if result.failed:
        print(f"NOT verified: turn {result.turn}'s dice are not shown to come from the "
              f"committed seed, or its outcome is not the rules' one (see FAILED above)")
        return 1
    print(verdict(result, before is not None))
    return 0


def verdict(result: Verification, resolved_again: bool) -> str:
    """The last line of a verification that found nothing wrong."""
    outcome = " and its outcome the rules' one" if resolved_again else ""
    if not result.committed:
        return (f"verified, but without a commitment: nothing contradicts turn {result.turn}'s "
                f"dice following from the revealed seed{outcome}, but no commitment to that "
                f"seed was published before the deadline")
    return f"verified: nothing contradicts turn {result.turn}'s dice being the committed " \
           f"ones{outcome}"

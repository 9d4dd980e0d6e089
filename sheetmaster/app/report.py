"""What a turn changed: a cell-level diff and a per-player turn report in markdown."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from typing import Any

from sheetmaster.engine import collector
from sheetmaster.engine.order_cap import gathered, over_cap_reason
from sheetmaster.engine.turn import orders_private
from sheetmaster.kit.changes import (
    CellChange,
    table_changes,
)
from sheetmaster.kit.model import GM_ONLY, Event, GameState, OrderResult, Status, TurnResult
from sheetmaster.kit.orders import PLAYER
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Kind
from sheetmaster.kit.tabs import (
    DEFAULT_CAP,
    GAME_TAB,
    GM_ORDERS_TAB,
    LOG_TAB,
    ORDER_CAP,
    ORDERS_TAB,
    all_tables,
)
from sheetmaster.kit.values import plural, plural_word


def _player_of(change: CellChange, players: set[str], orders_by: dict[int, Any]
               ) -> list[str]:
    """Who a changed cell concerns: the row's player, or a territory's old and new owner;
    ``orders_by``: each Orders tab row's player."""
    if change.key in players:
        return [change.key]
    if change.column == "owner":
        return [p for p in (change.before, change.after) if p in players]
    if change.tab == ORDERS_TAB:
        who = orders_by.get(change.row)
        return [who] if who in players else []
    return []


def diff_by_player(ruleset: Ruleset, result: TurnResult) -> dict[str, list[CellChange]]:
    """Changes grouped by the player they concern ('' for game-wide ones)."""
    players = set(_player_names(ruleset, result.after))
    orders = result.after.tables.get(ORDERS_TAB)
    orders_by = dict(zip(orders.index.tolist(), orders[PLAYER].tolist())) \
        if orders is not None and PLAYER in orders.columns else {}
    grouped: dict[str, list[CellChange]] = defaultdict(list)
    for table in all_tables(ruleset):
        if table.tab == LOG_TAB:
            continue  # the Log's new lines are the turn's events, grouped on their own
        for change in table_changes(table, result.before, result.after):
            for who in _player_of(change, players, orders_by) or [""]:
                grouped[who].append(change)
    return dict(grouped)


def _player_names(ruleset: Ruleset, state: GameState) -> list[str]:
    """The players, from the ruleset's players tab (empty if it has none)."""
    table = ruleset.players_table()
    if table is not None and table.key and table.tab in state.tables:
        return [p for p in state.tables[table.tab][table.key].tolist() if p]
    return []


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
        return "(blank)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # "turn: 1 -> 2", not "1.0 -> 2"
    return str(value)


def format_diff(ruleset: Ruleset, result: TurnResult) -> str:
    """Per player: each changed cell and the log lines that explain it."""
    lines: list[str] = []
    grouped = diff_by_player(ruleset, result)
    events = _events_by_player(result)
    for who in sorted(set(grouped) | set(events), key=lambda p: (p == "", p)):
        lines.append(f"== {one_line(who or 'game')} ==")
        new_rows: dict[tuple[str, int], list[str]] = defaultdict(list)
        for c in grouped.get(who, []):
            if c.tab == ORDERS_TAB:
                continue
            if c.before is None and not c.key:
                new_rows[(c.tab, c.row)].append(f"{c.column}={_cell(c.after)}")
                continue
            name = f" {c.key}" if c.key else ""
            lines.append(one_line(f"  {c.tab}!{c.column} row {c.row}{name}: "
                                  f"{_cell(c.before)} -> {_cell(c.after)}"))
        for (tab, row), cells in sorted(new_rows.items()):
            lines.append(one_line(f"  {tab} new row {row}: {', '.join(cells)}"))
        for e in events.get(who, []):
            lines.append(one_line(f"    why: [{e.phase}] {e.text}"))
    return printable("\n".join(lines))


def _events_by_player(result: TurnResult) -> dict[str, list]:
    grouped: dict[str, list] = defaultdict(list)
    for e in result.events:
        grouped[e.player].append(e)
    return grouped


def format_results(result: TurnResult, words: dict[Status, str] | None = None) -> str:
    """One line per order row: row, player, order, status (or ``words`` for it), reason; the
    rows over a player's cap in one line per player."""
    lines = []
    reason_over = over_cap_of(result)
    shown, over = gathered(result.results, reason_over)
    for r in shown:
        reason = f": {r.reason}" if r.reason else ""
        status = words[r.status] if words else r.status.value
        where = f"row {r.row:>5}" if r.row >= 0 else order_row(r.row)
        lines.append(f"  {where}  {one_line(r.player or '?')} - "
                     f"{one_line(r.kind or '?')} -> {status}{one_line(reason)}")
    for player, rows in over.items():
        status = words[Status.REJECTED] if words else Status.REJECTED.value
        lines.append(f"  {_rows_span(rows)}  {one_line(player or '?')} -> {status}: "
                     f"{reason_over}")
    return printable("\n".join(lines)) or "  (no orders this turn)"


def order_row(row: int) -> str:
    """Where an order is, for people: 'row 12', or 'GM orders, row 2' for a row of the GM
    orders tab (which a turn numbers negative, after the Orders tab's: -2 is its row 2)."""
    return f"{GM_ORDERS_TAB}, row {-row}" if row < 0 else f"row {row}"


def over_cap_of(result: TurnResult) -> str:
    """The reason this turn gave the rows over a player's cap."""
    return over_cap_reason(result.before.meta.get(ORDER_CAP, DEFAULT_CAP))


def _rows_span(rows: list[int]) -> str:
    """'12,000 rows (row 112 to row 100,019)'."""
    return f"{len(rows):,} rows (row {min(rows):,} to row {max(rows):,})"


GM = "GM"
#: the headings of a report's sections that are no player's.
WHOLE_GAME = "The whole game"
GM_ONLY_LINES = "GM-only lines"


class TurnGroups:
    """A turn's orders, lines, changed cells and counts, grouped by player once for all the
    turn's reports: each report then costs what it prints, not another pass over the turn.
    Build it once (``TurnGroups(ruleset, result)``) and pass it to :func:`player_report`."""

    def __init__(self, ruleset: Ruleset, result: TurnResult) -> None:
        # hundreds of thousands of cell changes and lists, no cycle among them: the collector
        # would traverse the whole turn again and again (two thirds of the time at 10^5)
        with collector.paused():
            self._group(ruleset, result)

    def _group(self, ruleset: Ruleset, result: TurnResult) -> None:
        self.result = result
        self.players = _player_names(ruleset, result.after)
        self.player_set = set(self.players)
        #: a player's place in the players tab, to list sections in its order.
        self.place: dict[str, int] = {}
        for i, p in enumerate(self.players):
            self.place.setdefault(p, i)
        #: cell changes by the player they concern: the same whoever reads.
        self.changes = diff_by_player(ruleset, result)
        self.counts = _owned_counts(ruleset, result)
        self.derived = {(t.tab, c.name) for t in ruleset.tables for c in t.columns
                        if c.optional and c.owned}
        #: every order by its player, as the GM knows it.
        self.orders: dict[str, list[OrderResult]] = defaultdict(list)
        self.reason_over = over_cap_of(result)
        for r in result.results:
            self.orders[r.player].append(r)
        #: ... and as everyone may know it (the same for a resolve; a check's, see
        #: TurnResult.views), secret ones left for their own player's report.
        self.shared: dict[str, list[OrderResult]] = self.orders
        if None in result.views:
            self.shared = defaultdict(list)
            for r in result.views[None]:
                self.shared[r.player].append(r)
        #: every line by the player it concerns; the lines that are not public by the one
        #: player who may see them (Event.reader).
        self.events: dict[str, list[Event]] = defaultdict(list)
        self.hidden: dict[str, list[Event]] = defaultdict(list)
        self._dice_at: dict[int, int] = {}  # id of a dice line -> its place in the turn
        for at, e in enumerate(result.events):
            self.events[e.player].append(e)
            if not e.public:
                self.hidden[e.reader].append(e)
            if e.kind == "dice":
                self._dice_at[id(e)] = at
        whole = _by_phase(ruleset, [e for e in self.events.get("", ()) if e.public])
        #: the public game-wide lines, the same in every report.
        self.whole_game = [f"## {WHOLE_GAME}", "", *whole] if whole else []
        public = [r for rs in self.shared.values() for r in rs if not r.secret]
        self.public_orders = (len(public), sum(r.status is Status.REJECTED for r in public))
        self.rejected = sum(r.status is Status.REJECTED for r in result.results)
        self.public_dice = sum(e.kind == "die" and e.public for e in result.events)
        self.dice = sum(e.kind == "die" for e in result.events)
        self._public_dice = next((e for e in result.events if e.kind == "dice" and e.public),
                                 None)
        self.public_dice_line = self._public_dice.text if self._public_dice else ""
        self.dice_line = next((e.text for e in result.events if e.kind == "dice"), "")

    def own_orders(self, player: str) -> list[OrderResult]:
        """``player``'s orders as that player may know them (see TurnResult.views)."""
        if not self.result.views:
            return self.orders.get(player, [])
        return self.result.own_results(player)

    def seen_dice_line(self, viewer: str) -> str:
        """The turn's first dice line that ``viewer`` may see."""
        mine = next((e for e in self.hidden.get(viewer, ()) if e.kind == "dice"), None)
        seen = [e for e in (self._public_dice, mine) if e is not None]
        return min(seen, key=lambda e: self._dice_at[id(e)]).text if seen else ""

    def totals(self, viewer: str | None) -> tuple[int, int, int]:
        """(orders, rejected, dice rolled) that ``viewer``'s view holds: the public ones, a
        player's own secret orders and the lines only they may see too; the GM's, all."""
        if viewer == GM:
            return len(self.result.results), self.rejected, self.dice
        orders, rejected = self.public_orders
        if viewer is None:
            return orders, rejected, self.public_dice
        secret = [r for r in self.own_orders(viewer) if r.secret]
        return (orders + len(secret),
                rejected + sum(r.status is Status.REJECTED for r in secret),
                self.public_dice + sum(e.kind == "die" for e in self.hidden.get(viewer, ())))


#: where a player's own report sends its reader for everyone else's part of the turn.
ELSEWHERE = "The other players' orders and public lines are in the public turn report."
ELSEWHERE_CHECKED = "The other players' orders, as they stand, are in the sheet's Orders tab."


def player_report(ruleset: Ruleset, result: TurnResult, viewer: str | None = None, *,
                  checked: bool = False, groups: TurnGroups | None = None) -> str:
    """The markdown turn report.

    ``viewer`` None: the public report a GM can post, one section per player (public events
    only, secret orders left to their players' own reports); ``GM``: the GM's full report,
    every section with everything. A player's name: that player's own report, what is
    theirs or for their eyes alone: their own section first and whole (their orders, secret
    ones too, with reasons, their notes, their lines public and private, their holdings and
    balances), then a section for another player only where the reader may see a line about
    that player that is not public (those lines alone), then a line saying the rest is in
    the public report.
    ``checked``: the report of a check (orders as they stand), not of a resolved turn.
    ``groups``: the turn grouped once (:class:`TurnGroups`) when making many reports. Every
    text that comes from the sheet is escaped (:func:`md`): what a player typed can never
    make a row, a heading, an image, a link or a mention.
    """
    if groups is None:
        groups = TurnGroups(ruleset, result)
    whose = "" if viewer is None else " (GM's full report)" if viewer == GM else \
        f" for {md(viewer)}"  # md() strips the space before 'for'
    title = f"# Turn {result.turn}: orders as they stand (a check){whose}" if checked else \
        f"# Turn {result.turn} results{whose}"
    out = [title, "", f"Rules: {md(ruleset.title)}." if checked else
           f"Rules: {md(ruleset.title)}. Dice seed: {result.seed}.", ""]
    dice = groups.public_dice_line if viewer is None else groups.dice_line if viewer == GM \
        else groups.seen_dice_line(viewer)
    if dice:
        out += [f"Dice: {md(dice)}. Anyone can check them with `sheetmaster verify`.", ""]
    if (viewer is None or viewer == GM) and not checked:
        out += glance(ruleset, groups)
    out += groups.whole_game
    private = viewer != GM and orders_private(result.before)
    if viewer is None or viewer == GM:
        everything = viewer == GM
        for name in groups.players:
            orders = groups.orders.get(name, []) if everything else \
                [r for r in groups.shared.get(name, ()) if not r.secret]
            events = groups.events.get(name, [])
            out += _section(ruleset, groups, name, None if private else orders,
                            result.notes.get(name) if everything else None,
                            events if everything else [e for e in events if e.public])
        if everything:
            out += _gm_only_section(ruleset, result, groups.player_set)
    else:
        if viewer in groups.player_set:
            out += _section(ruleset, groups, viewer, groups.own_orders(viewer),
                            result.notes.get(viewer),
                            [e for e in groups.events.get(viewer, ()) if e.visible_to(viewer)])
        about: dict[str, list[Event]] = defaultdict(list)
        for e in groups.hidden.get(viewer, ()):
            if e.player != viewer and e.player in groups.player_set:
                about[e.player].append(e)
        for name in sorted(about, key=groups.place.__getitem__):
            lines = _by_phase(ruleset, about[name])
            if lines:
                out += [f"## {md(name)}", "", *lines]
        out += [ELSEWHERE_CHECKED if checked else ELSEWHERE, ""]
    orders, rejected, dice_rolled = groups.totals(viewer)
    counted = "" if private and viewer is None else \
        f"{plural(orders, 'order')}, {rejected} rejected, "
    out.append(f"_{counted}{plural(dice_rolled, 'die', 'dice')} rolled._")
    return "\n".join(out) + "\n"


#: the heading of a report's summary (the public report's and the GM's).
GLANCE = "At a glance"
#: the kinds of line that tell of a war or a battle (as the rulesets log them): the summary
#: lists the turn's public ones.
WAR_KINDS = frozenset({"war", "battle", "naval battle", "invasion"})
#: at most so many of those lines in the summary (every one is in its player's section).
GLANCE_LINES = 8
#: ... each cut to so many characters.
GLANCE_WIDTH = 200
#: what a player gained or lost is named up to so many rows, and counted beyond.
GLANCE_NAMES = 5


def glance(ruleset: Ruleset, groups: TurnGroups) -> list[str]:
    """The turn at a glance: who gained and who lost rows of each tab players own
    (territories), and the turn's public lines of war and battle; nothing when no row
    changed hands and no war or battle was fought. Public knowledge only (the sheet's
    owners, the Log's lines), so the public report and the GM's show the same."""
    out: list[str] = []
    for tab in groups.counts:
        noun = plural_word(ruleset.table(tab).row_noun)
        for verb, side in (("gained", "after"), ("lost", "before")):
            moved = [(name, rows) for name in groups.players
                     if (rows := _moved(groups, tab, name, side))]
            if moved:
                out += [f"{noun.capitalize()} {verb}: " + "; ".join(
                    f"{md(name)} ({_rows_named(rows, ruleset.table(tab).row_noun)})"
                    for name, rows in moved), ""]
    wars = list(dict.fromkeys(e.text for e in groups.result.events
                              if e.public and e.kind in WAR_KINDS))
    if wars:
        out += ["**Wars and battles**", *(f"- {md(_cut_text(text, GLANCE_WIDTH))}"
                                          for text in wars[:GLANCE_LINES])]
        if len(wars) > GLANCE_LINES:
            out.append(f"- ... and {len(wars) - GLANCE_LINES} more, in the sections below")
        out.append("")
    return [f"## {GLANCE}", "", *out] if out else []


def _moved(groups: TurnGroups, tab: str, name: str, side: str) -> list[str]:
    """The rows of ``tab`` that ``name`` gained (``side`` 'after') or lost ('before'), as
    their section says."""
    return [c.key for c in groups.changes.get(name, ())
            if c.tab == tab and getattr(c, side) == name]


def _rows_named(rows: list[str], noun: str) -> str:
    """'Ys, Tor' or, past GLANCE_NAMES, '12 territories'."""
    if len(rows) > GLANCE_NAMES:
        return plural(len(rows), noun)
    return ", ".join(md(r) for r in rows)


def _cut_text(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 3].rstrip() + "..."


def _section(ruleset: Ruleset, groups: TurnGroups, name: str,
             orders: list[OrderResult] | None, notes: list[str] | None,
             events: list[Event]) -> list[str]:
    """One player's section: orders (None: kept private), notes, lines by phase, holdings
    and balances."""
    out = [f"## {md(name)}", "", *_orders_section(orders, groups.reason_over)]
    if notes:
        out += ["**Only for you** (and the GM)", "", *(f"- {md(line)}" for line in notes), ""]
    out += _by_phase(ruleset, events)
    out += _holdings_section(ruleset, groups.changes.get(name, []), name, groups.counts,
                             groups.derived)
    return out


def _by_phase(ruleset: Ruleset, events: list) -> list[str]:
    """Events under their phase's heading, phases in running order."""
    by_phase: dict[str, list[str]] = defaultdict(list)
    for e in events:
        by_phase[e.phase].append(e.text)
    out: list[str] = []
    for phase in ruleset.phases:
        if by_phase.get(phase.key):
            out.append(f"**{md(phase.key)}. {md(phase.title)}**")
            out += [f"- {md(text)}" for text in by_phase[phase.key]]
            out.append("")
    return out


def player_reports(ruleset: Ruleset, result: TurnResult, *, checked: bool = False,
                   groups: TurnGroups | None = None) -> dict[str, str]:
    """Every player's own report, and the GM's full one (key ``GM``), from the turn grouped
    once: together they cost about one public report plus what they print."""
    if groups is None:
        groups = TurnGroups(ruleset, result)
    reports = {name: player_report(ruleset, result, name, checked=checked, groups=groups)
               for name in groups.players}
    reports[GM] = player_report(ruleset, result, GM, checked=checked, groups=groups)
    return reports


#: what the public report says of orders kept in the GM's own spreadsheet.
PRIVATE_ORDERS = ("Orders are private in this game: each player's own report lists theirs.")


def _orders_section(mine: list[OrderResult] | None, reason_over: str = "") -> list[str]:
    """A player's orders, a row each (None: kept private); the rows over their cap summed up
    in one row."""
    if mine is None:
        return [PRIVATE_ORDERS, ""]
    if not mine:
        return ["No orders this turn.", ""]
    shown, over = gathered(mine, reason_over)
    return ["| row | order | result | reason |", "|---|---|---|---|",
            *(f"| {r.row if r.row >= 0 else order_row(r.row)} | {md(r.kind)} | "
              f"{r.status.value} | {md(r.reason)} |" for r in shown),
            *(f"| {_rows_span(rows)} | | {Status.REJECTED.value} | {reason_over} |"
              for rows in over.values()), ""]


def _holdings_section(ruleset: Ruleset, changes: list[CellChange], name: str,
                      counts: dict[str, dict[str, tuple[int, int]]],
                      derived: set[tuple[str, str]]) -> list[str]:
    """Rows gained and lost, counts of what the player holds, and balances (``derived``:
    the (tab, column) cells sheetmaster works out, left out of the balances)."""
    out: list[str] = []
    changes = [c for c in changes if c.tab not in (ORDERS_TAB, GAME_TAB)]
    for tab, by_player in counts.items():
        noun = plural_word(ruleset.table(tab).row_noun)
        gained = [c.key for c in changes if c.tab == tab and c.after == name]
        lost = [c.key for c in changes if c.tab == tab and c.before == name]
        if gained:
            out += [f"{noun.capitalize()} gained: {', '.join(md(g) for g in gained)}", ""]
        if lost:
            out += [f"{noun.capitalize()} lost: {', '.join(md(g) for g in lost)}", ""]
        before, after = by_player.get(name, (0, 0))
        if before != after:
            out += [f"{noun.capitalize()} held: {before} -> {after}", ""]
    balance = [f"{ruleset.noun(c.column)} {_cell(c.before)} -> {_cell(c.after)}"
               for c in changes if c.key == name and (c.tab, c.column) not in derived]
    if balance:
        out += ["Balances: " + "; ".join(md(b) for b in balance), ""]
    return out


def _owned_counts(ruleset: Ruleset, result: TurnResult) -> dict[str, dict[str, tuple[int, int]]]:
    """tab -> player -> (rows held before, after), for each tab whose rows a player owns
    (an owned column naming a player): counted, not read from a column that may be blank."""
    players = ruleset.players_table()
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for table in ruleset.tables:
        column = next((c for c in table.columns if c.owned and c.kind is Kind.REF and players
                       and c.ref == players.tab and c.name == "owner"), None)
        if column is None or not table.key:
            continue
        before = Counter(result.before.tables[table.tab][column.name].tolist())
        after = Counter(result.after.tables[table.tab][column.name].tolist())
        out[table.tab] = {p: (before.get(p, 0), after.get(p, 0))
                          for p in set(before) | set(after) if p}
    return out


def _gm_only_section(ruleset: Ruleset, result: TurnResult, players: set[str]) -> list[str]:
    """Lines no player's section shows: GM-only ones, and private ones about no player."""
    hidden = [e for e in result.events if not e.public and
              (e.audience == GM_ONLY or e.player not in players)]
    if not hidden:
        return []
    return [f"## {GM_ONLY_LINES}", "",
            *(f"- [{e.phase}] {md(e.player or 'game')}: {md(e.text)}" for e in hidden), ""]


#: line and paragraph breaks, and every other control character.
_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
#: characters that make markdown (or Discord) markup inside a line: emphasis, code, links and
#: images (their brackets), HTML and autolinks, table cells, spoilers, strike-through. (A
#: heading, a quote or a list needs a line of its own, which a line break would start.)
_MARKUP = re.compile(r"([\\`*_\[\]<|~])")
_ZERO_WIDTH = "\u200b"
_ENTITY = re.compile(r"&(?=[#A-Za-z])")
_WWW = re.compile(r"(?i)\bwww\.")


#: any character md() changes, a link's '://' or a 'www.': text with none is left as it is
#: (stripped), without the five passes (most of a big report's lines).
_CHANGED = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\\`*_\[\]<|~@&]|://|(?i:www\.)")


def md(text: object) -> str:
    """Text from the sheet, safe inside a markdown line or table cell: one line, markup
    characters escaped, @mentions, bare links and HTML entities (``&#64;everyone``) broken
    with a zero-width space."""
    line = str(text)
    if _CHANGED.search(line) is None:
        return line.strip()
    return _escaped(line)


def _escaped(text: str) -> str:
    """md() the long way, every pass."""
    line = _BREAKS.sub(" ", text).strip()
    line = _MARKUP.sub(r"\\\1", line)
    line = line.replace("@", "@" + _ZERO_WIDTH).replace("://", ":" + _ZERO_WIDTH + "//")
    line = _ENTITY.sub("&" + _ZERO_WIDTH, line)  # no entity: &#64; is an @
    return _WWW.sub("www" + _ZERO_WIDTH + ".", line)


def printable(text: str) -> str:
    """Text for a terminal or a log: control characters (escape sequences a player could
    type) shown as '?', line breaks kept."""
    return re.sub(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", "?", text)


def one_line(text: object) -> str:
    """Text from the sheet for one line of a terminal or a log: every control character,
    line breaks too, shown as '?', so a player's text never starts a line of its own (where
    GitHub Actions would run '::error::...' or '::add-mask::...' as a workflow command)."""
    return _BREAKS_ONE.sub("?", str(text))


_BREAKS_ONE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")

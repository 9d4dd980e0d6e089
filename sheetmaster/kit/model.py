"""The engine's data: game state in, turn result out. Plain data, no I/O."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd


class Status(str, enum.Enum):
    """What happened to an order row. The value is what the result cell shows."""

    APPLIED = "applied"
    PARTIAL = "partly applied"
    REJECTED = "rejected"
    #: valid, but stopped by other orders of the same turn (a bounce, a cut support).
    BLOCKED = "blocked"
    #: a standing order for a case that did not arise (e.g. which pop to lose to famine).
    NOT_NEEDED = "not needed"
    #: what everyone but its player (and the GM) sees of a secret order, whatever became of
    #: it: never an order's own outcome, only the face it shows (:attr:`OrderResult.shown`).
    PRIVATE = "private"


#: Who may see an event: everyone; its player (and the GM); the GM alone. Any other value
#: is the name of the one player who may see it (besides the GM).
PUBLIC, PRIVATE, GM_ONLY = "public", "private", "gm"
#: The kind of a public event that warns the GM of something orders cannot fix by being
#: refused (1800: a nation at war with no war actions; decades: a Governments row whose name
#: contradicts its traits). The one way a ruleset warns of the game: ``check`` and
#: ``resolve`` say each on stderr (``warning: ...``) and list them in ``--json``; a resolve's
#: Log tab keeps them like any other line.
WARNING = "warning"


@dataclass
class GameState:
    """Every tab of a game as a table, plus the game's metadata.

    Each table's index is the sheet row number of that row (the header is row 1), so any
    message about a row can name the cell a GM has to look at.
    """

    tables: dict[str, pd.DataFrame]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def turn(self) -> int:
        return int(self.meta["turn"])

    def copy(self) -> GameState:
        return GameState({k: v.copy() for k, v in self.tables.items()}, dict(self.meta))


@dataclass(slots=True)
class Order:
    """One parsed order row. ``seq`` is its posting order among this turn's orders."""

    row: int
    seq: int
    player: str
    kind: str
    fields: dict[str, Any]
    #: read from the GM's own orders tab (GM-only order kinds need it).
    from_gm: bool = False
    #: the :class:`~sheetmaster.kit.order_batch.OrderBatch` it belongs to, and its place there:
    #: where its outcome is recorded.
    batch: Any = field(default=None, repr=False, compare=False)
    index: int = field(default=-1, repr=False, compare=False)


#: what the shared sheet says of a secret order's outcome; the player's report says the rest.
PRIVATE_REASON = "private: your own turn report says what happened"


@dataclass(slots=True)
class OrderResult:
    row: int
    player: str
    kind: str
    status: Status
    reason: str = ""
    #: a secret order (one that names or hangs on a secret of its player's, such as a card
    #: in hand): everyone else sees its status as PRIVATE and no reason, whatever became of
    #: it, so that its row tells a prober nothing; its player's own report has the rest.
    secret: bool = False

    @property
    def public_status(self) -> Status:
        return Status.PRIVATE if self.secret else self.status

    @property
    def public_reason(self) -> str:
        return PRIVATE_REASON if self.secret else self.reason

    def shown(self) -> OrderResult:
        """The result as anyone may see it: a secret order's as PRIVATE, without its reason."""
        if not self.secret:
            return self
        return replace(self, status=Status.PRIVATE, reason=PRIVATE_REASON)


@dataclass(slots=True)
class Event:
    """One line of the turn log: a change, an outcome, or a die roll.

    ``player`` is who it concerns (blank for game-wide events). Dice have ``sides`` and
    ``value``; ``why`` says what the roll was for. ``audience`` says who may see it: the
    Log tab in the shared sheet holds only public events.
    """

    seq: int
    phase: str
    player: str
    kind: str
    text: str
    sides: int | None = None
    value: int | None = None
    #: PUBLIC, PRIVATE, GM_ONLY, or a player's name.
    audience: str = PUBLIC

    @property
    def public(self) -> bool:
        return self.audience == PUBLIC

    @property
    def reader(self) -> str | None:
        """The one player who may see it besides the GM (None when it is public): its own
        player if it is private, else its audience (GM_ONLY names no player)."""
        if self.audience == PUBLIC:
            return None
        return self.player if self.audience == PRIVATE else self.audience

    def visible_to(self, player: str) -> bool:
        """Whether ``player`` may see it (the GM sees everything)."""
        return self.audience == PUBLIC or self.reader == player


@dataclass
class TurnResult:
    """Everything a resolved turn produced: pure data, easy to diff and to test."""

    ruleset: str
    turn: int
    seed: int
    before: GameState
    after: GameState
    results: list[OrderResult]
    events: list[Event]
    #: player -> what only that player (and the GM) may know of the game as it stands after
    #: the turn (before it, for a check): a hand of cards, a secret goal.
    notes: dict[str, list[str]] = field(default_factory=dict)
    #: a check's answers as a reader may know them, where they are not ``results`` (the
    #: GM's: every order as it stands): None -> every row's, for the shared sheet and the
    #: output; a player -> their own rows'. Empty for a resolve, whose secret orders' effects
    #: are public by the rules (a card played is shown).
    views: dict[str | None, list[OrderResult]] = field(default_factory=dict)

    def public(self) -> TurnResult:
        """What anyone may see in a report posted for everyone or a CI log: public events
        only, and no secret order at all (where orders are kept in a GM-only spreadsheet,
        even its being there is its player's secret). The shared sheet shows a secret
        order's status as PRIVATE."""
        shown = self.views.get(None, self.results)
        return replace(self, results=[r for r in shown if not r.secret],
                       events=[e for e in self.events if e.public], notes={}, views={})

    def own_results(self, player: str) -> list[OrderResult]:
        """``player``'s own orders, each as its player may know it (see :attr:`views`)."""
        if player in self.views:
            return self.views[player]
        return [r for r in self.views.get(None, self.results) if r.player == player]

    def result_for_row(self, row: int) -> OrderResult | None:
        for r in self.results:
            if r.row == row:
                return r
        return None

"""A game bound to its tabs: the record ``sheetmaster init`` leaves in the spreadsheet.

Anyone who may edit a shared Google Sheet may add a tab, name it like a protected one
("Players" and a no-break space) and move it first. A run must never take such a tab for the
game's, so ``init`` records the sheetId of every tab it lays out, and for each tab it protects
the protectedRangeId Google gave that protection and who may edit it. The record is spreadsheet
developer metadata (``sheetmaster-tabs``), signed with a key from the game's dice secret as the
run's lock is: players may write developer metadata too, but cannot sign a record, and a
record they copy from an earlier ``init`` names protections that no tab they add can carry
(Google gives protectedRangeIds; nobody chooses them).

A run with the dice secret reads and writes the bound tabs by sheetId and stops before
anything is read if a bound tab is gone, renamed, unprotected, or editable by someone init did
not make an editor. A run without the secret (a player's, or ``verify``) cannot tell a signed
record from a forged one: it reads tabs by their exact names, which players cannot take over
either (protected tabs cannot be renamed or deleted by them, Google keeps titles unique, and a
tab whose name folds to another's stops every run).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sheetmaster.kit.fairness import derived_key, sign
from sheetmaster.kit.tabs import check_tab_names
from sheetmaster.stores.base import StoreError

#: the developer metadata key of the record.
BIND_KEY = "sheetmaster-tabs"
_VERSION = "v1"

#: what a run asks of the spreadsheet before reading it (without the lock's batchUpdate).
TAB_FIELDS = ("properties.timeZone,sheets.properties,sheets.protectedRanges,"
              "developerMetadata")



@dataclass(frozen=True)
class Bound:
    """One tab of the record: its sheetId and, for a protected tab, the protectedRangeId of
    the whole-tab protection init made or kept (None for the players' own orders tab)."""

    sheet_id: int
    protection: int | None = None


@dataclass
class Binding:
    """The tabs ``init`` bound: title -> :class:`Bound`, for the game whose spreadsheet is
    ``game`` (an orders spreadsheet's record names the shared spreadsheet's id), written at
    ``made`` (Unix seconds: the latest trusted record is the one in force); ``editors``: who
    may edit the protected tabs, as Google listed them after init."""

    game: str
    made: int
    tabs: dict[str, Bound] = field(default_factory=dict)
    editors: tuple[str, ...] = ()

    def value(self, spreadsheet_id: str, secret: str) -> str:
        """The metadata value: version, signature, then the record as JSON."""
        body = json.dumps({"game": self.game, "made": self.made, "editors": list(self.editors),
                           "tabs": {t: [b.sheet_id, b.protection] for t, b in self.tabs.items()}},
                          sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return f"{_VERSION} {_signature(secret, spreadsheet_id, body)} {body}"

    @classmethod
    def read(cls, value: str, spreadsheet_id: str, secret: str) -> Binding | None:
        """The record in a metadata value, or None if this game's secret did not sign it."""
        parts = value.split(" ", 2)
        if len(parts) != 3 or parts[0] != _VERSION:
            return None
        if not hmac.compare_digest(parts[1], _signature(secret, spreadsheet_id, parts[2])):
            return None
        try:
            body = json.loads(parts[2])
            tabs = {str(t): Bound(int(i), None if p is None else int(p))
                    for t, (i, p) in body["tabs"].items()}
            return cls(str(body["game"]), int(body["made"]), tabs,
                       tuple(str(e) for e in body.get("editors") or ()))
        except (KeyError, TypeError, ValueError):
            return None


def _signature(secret: str, spreadsheet_id: str, body: str) -> str:
    return sign(derived_key(secret, "tab binding"), f"{spreadsheet_id} {body}")[:32]


def latest_binding(metadata: Iterable[dict[str, Any]], spreadsheet_id: str, secret: str,
                   game: str) -> Binding | None:
    """The latest record of ``game`` this game's secret signed, among the spreadsheet's
    developer metadata (None if there is none)."""
    found = []
    for meta in metadata:
        if meta.get("metadataKey") != BIND_KEY:
            continue
        binding = Binding.read(meta.get("metadataValue") or "", spreadsheet_id, secret)
        if binding is not None and binding.game == game:
            found.append(binding)
    return max(found, key=lambda b: b.made) if found else None


def is_tab_protection(protection: dict[str, Any]) -> bool:
    """A protection of a whole tab that stops everyone but its editors."""
    grid = protection.get("range") or {}
    return (set(grid) <= {"sheetId"} and "namedRangeId" not in protection
            and not protection.get("warningOnly") and not protection.get("unprotectedRanges"))


def protection_editors(protection: dict[str, Any]) -> list[str] | None:
    """Who may edit a protection (None: not shown to this account, which is none of them)."""
    editors = protection.get("editors")
    if editors is None:
        return None
    if editors.get("domainUsersCanEdit"):
        return ["everyone in the domain"]
    return [*(editors.get("users") or ()), *(editors.get("groups") or ())]


def binding_problems(binding: Binding, tabs: Iterable[Any], account: str = "") -> list[str]:
    """What no longer holds of ``binding`` in a spreadsheet whose tabs (``.title``,
    ``.sheet_id``, ``.protections``) are ``tabs``, each said with what the GM should do."""
    by_id = {t.sheet_id: t for t in tabs}
    allowed = {e.casefold() for e in binding.editors}
    out = []
    for name, bound in binding.tabs.items():
        tab = by_id.get(bound.sheet_id)
        if tab is None:
            out.append(f"tab {name!r}, which init bound to the game, is gone: restore it "
                       f"(File > Version history), or run `sheetmaster init` again to lay "
                       f"the game out and bind its tabs as they are")
        elif tab.title != name:
            out.append(f"tab {name!r}, which init bound to the game, is now named "
                       f"{tab.title!r}: give it back its name (sheetmaster reads the tab init "
                       f"bound, and players read tabs by name: the two must agree)")
        elif bound.protection is not None:
            out += _protection_problems(name, tab, bound.protection, allowed, account)
    return out


def _protection_problems(name: str, tab: Any, protection_id: int, allowed: set[str],
                         account: str) -> list[str]:
    found = next((p for p in tab.protections
                  if p.get("protectedRangeId") == protection_id), None)
    if found is None or not is_tab_protection(found):
        return [f"tab {name!r} is no longer protected as init protected it, so players could "
                f"edit it: run `sheetmaster init` again, which protects it"]
    editors = protection_editors(found)
    if editors is None:
        return [f"the account this run uses ({account or 'unknown'}) is not an editor of tab "
                f"{name!r}: run `sheetmaster init` again with --service-account naming it"]
    extra = [e for e in editors if e.casefold() not in allowed]
    if extra:
        return [f"tab {name!r} may be edited by {', '.join(extra)}, whom init did not make "
                f"an editor: if they are a GM, run `sheetmaster init` again with --editor; "
                f"if not, remove them from the tab's protection"]
    return []


class TabBinding:
    """What :class:`~sheetmaster.stores.gsheets.SheetsStore` does with the record (a mixin:
    it uses the store's ``tabs``, ``secret``, ``spreadsheet_id``, ``game`` and ``account``)."""

    bound: Binding | None = None

    def _bind(self: Any, metadata: list[dict[str, Any]]) -> None:
        """Check the tabs against the record init left (with the secret): every bound tab
        there, named and protected as init left it; and no two tabs named alike."""
        check_tab_names(self.tabs)
        self.bound = None
        if not self.secret or not self.binding_required:
            return  # a record cannot be checked: tabs are read by their exact names
        binding = latest_binding(metadata, self.spreadsheet_id, self.secret, self.game)
        if binding is None:
            raise StoreError(NOT_BOUND.format(sheet=self.game))
        problems = binding_problems(binding, self.tabs.values(), self.account or "")
        if problems:
            raise StoreError("the game's tabs are not as `sheetmaster init` bound them; "
                             "nothing was read or written:\n  " + "\n  ".join(problems))
        self.bound = binding

    def read_titles(self: Any) -> list[str]:
        """The tabs a run reads: the bound ones (in tab order), or every tab."""
        if self.bound is None:
            return list(self.tabs)
        return [t for t in self.tabs if t in self.bound.tabs]



NOT_BOUND = ("this game is not bound to its tabs: it was laid out by an older sheetmaster, "
             "or the record `sheetmaster init` leaves was removed. Run `sheetmaster init "
             "--sheet {sheet} --rules RULESET` again: it keeps every tab and its data (and the "
             "form tab and orders spreadsheet the Game tab names), protects them and binds the "
             "game to them. Nothing was read or written")

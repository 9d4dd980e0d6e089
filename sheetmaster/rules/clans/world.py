"""The clans game in memory: clans, provinces, armies and advisors, built from the tabs.

Phases change this model; load.py builds it from the tabs and declares the tabs written back
from it (``WRITTEN``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetmaster.kit import MapGraph, Names, World, values
from sheetmaster.rules.common.ownership import Holdings

from . import data
from .tables import Advisor, Army, Clan, IndependentRule, Province


def gone(why: str, turn: int) -> str:
    """The status of an army or advisor that is no more: kept on its row, ignored."""
    return f"gone ({why}, turn {turn})"


@dataclass
class Behaviour:
    starting: int = 1
    raise_chance: int = 0
    limit: int | None = None
    castle_chance: int = 0

    @property
    def army_limit(self) -> int:
        return self.starting if self.limit is None else self.limit


@dataclass
class ClansWorld(World):
    """Mutable game model the clans phases act on."""

    turn: int = 1
    provinces: dict[str, Province] = field(default_factory=dict)
    clans: dict[str, Clan] = field(default_factory=dict)
    armies: dict[str, Army] = field(default_factory=dict)
    advisors: list[Advisor] = field(default_factory=list)
    independents: list[IndependentRule] = field(default_factory=list)
    #: land borders between provinces; each province's coast on the named Seas it touches.
    map: MapGraph = field(default_factory=MapGraph)
    #: every row of the Armies tab, the gone ones too, and the new ones at the end.
    army_rows: list[Army] = field(default_factory=list)
    #: clan -> provinces it holds, in the order taken.
    holdings: Holdings = field(default_factory=Holdings)
    #: province -> armies standing in it.
    at: dict[str, list[Army]] = field(default_factory=dict)
    province_names: Names = field(default_factory=lambda: Names(()))
    #: folded name -> the armies in the field of that name, in ``armies``' order: built at
    #: the first name not found as written, then kept as armies come and go (issue 26.1; a
    #: list a name, not a dict: a large game's index is then a fraction of the size)
    _by_fold: dict[str, list[Army]] | None = field(default=None, repr=False)
    #: every army's name, case-folded (names are unique whatever their case).
    army_keys: set[str] = field(default_factory=set)
    #: clan -> its armies in the field, in the Armies tab's order. The Independents' are not
    #: kept (issue 26.1: most of a large game's armies, and no rule lists them).
    by_clan: dict[str, dict[str, Army]] = field(default_factory=dict)
    #: clan -> its advisors' rows (at court, offered or gone).
    advisors_of: dict[str, list[Advisor]] = field(default_factory=dict)

    # -- lookups for reading orders ------------------------------------------------------
    def names(self) -> dict[str, Names]:
        return {
            "player": Names(self.clans),
            "province": self.province_names,
            "army type": Names(data.ARMY_TYPES, data.ARMY_ALIASES),
            "improvement": Names(data.IMPROVEMENTS, data.IMPROVEMENT_ALIASES),
            "resource": Names(data.PRICES),
            "skill": Names(data.SKILLS),
            "tech": Names(data.TECHS),
        }

    def emails(self) -> dict[str, str]:
        return {c.name: c.email for c in self.clans.values() if c.email}

    # -- changes ---------------------------------------------------------------------------
    def set_owner(self, province: Province, owner: str) -> None:
        self.holdings.set_owner(province, owner)

    def provinces_of(self, clan: str) -> list[Province]:
        return self.holdings.rows(clan)

    def count(self, clan: str) -> int:
        return self.holdings.count(clan)

    def armies_of(self, clan: str) -> list[Army]:
        """A clan's armies in the field (not the Independents': see ``by_clan``)."""
        return list(self.by_clan.get(clan, {}).values()) if clan else []

    def set_army_clan(self, army: Army, clan: str) -> None:
        if army.clan:
            self.by_clan[army.clan].pop(army.name)
        army.clan = clan
        if clan:
            self.by_clan.setdefault(clan, {})[army.name] = army

    def add_army(self, clan: str, kind: str, province: str, name: str = "") -> Army:
        """A new army, raised this turn (its row goes at the bottom of the Armies tab)."""
        return self.place_army(Army(name or self.army_name(clan or province, kind), clan, kind,
                                    province))

    def place_army(self, army: Army) -> Army:
        status, clan, province = army.status, army.clan, army.province
        self.army_rows.append(army)
        self.army_keys.add(army.name.casefold())
        if not status:
            self.armies[army.name] = army
            here = self.at.get(province)
            if here is None:
                self.at[province] = here = []
            here.append(army)
            if clan:
                self.by_clan.setdefault(clan, {})[army.name] = army
            if self._by_fold is not None:
                self._by_fold.setdefault(values.fold(army.name), []).append(army)
        return army

    def remove_army(self, army: Army, why: str) -> None:
        """The army is no more; its row stays, marked gone (its name stays taken)."""
        del self.armies[army.name]
        self.at[army.province].remove(army)
        if army.clan:
            self.by_clan[army.clan].pop(army.name)
        if self._by_fold is not None:
            same = self._by_fold[values.fold(army.name)]
            del same[next(i for i, each in enumerate(same) if each is army)]
        army.status = gone(why, self.turn)

    def move_army(self, army: Army, province: str) -> None:
        self.at[army.province].remove(army)
        army.province = province
        self.at.setdefault(province, []).append(army)

    def army_name(self, base: str, kind: str) -> str:
        n = 1
        while f"{base} {kind} {n}".casefold() in self.army_keys:
            n += 1
        return f"{base} {kind} {n}"

    def find_army(self, text: str) -> Army | None:
        """The army named ``text`` (case and spaces do not matter)."""
        army = self.armies.get(text)
        if army is None:
            if self._by_fold is None:
                self._by_fold = by_fold = {}
                for folded, each in zip(values.fold_all(list(self.armies)),
                                        self.armies.values()):
                    same = by_fold.get(folded)
                    if same is None:
                        by_fold[folded] = [each]
                    else:
                        same.append(each)
            same = self._by_fold.get(values.fold(text))
            army = same[-1] if same else None  # the last listed
        return army

    def court(self, clan: str) -> list[Advisor]:
        return [a for a in self.advisors_of.get(clan, ()) if a.at_court]

    def offers(self) -> list[Advisor]:
        return [a for a in self.advisors if a.offering]

    def add_advisor(self, advisor: Advisor) -> None:
        self.advisors.append(advisor)
        self.advisors_of.setdefault(advisor.clan, []).append(advisor)

    def move_advisor(self, advisor: Advisor, clan: str) -> None:
        self.advisors_of[advisor.clan].remove(advisor)
        advisor.clan = clan
        self.advisors_of.setdefault(clan, []).append(advisor)

    def retire(self, advisor: Advisor, why: str) -> None:
        """The advisor leaves (or his offer lapses); his row stays, marked gone."""
        advisor.status = gone(why, self.turn)


def sea_node(sea: str) -> str:
    """A named Sea as a node of the map (apart from any province of the same name)."""
    return f"sea: {values.fold(sea)}"


def behaviour(world: ClansWorld, province: str) -> Behaviour:
    """How the Independents of ``province`` behave: the Independents tab's rows that name it
    (or every province), later rows winning, blank cells keeping the earlier value."""
    out = Behaviour()
    for rule in world.independents:
        if rule.provinces is not None and province not in rule.provinces:
            continue
        for name in ("starting", "raise_chance", "limit", "castle_chance"):
            value = getattr(rule, name)
            if value is not None:
                setattr(out, name, value)
    return out

"""The decades world: states, provinces, the GM's governments and technologies, alliances,
and the questions every phase asks of them (values, shares, caps, who controls whom)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from sheetmaster.kit import GM, Decision, MapGraph, World, values
from sheetmaster.rules.common.ownership import Holdings

from .tables import (
    Alliance,
    Government,
    Province,
    State,
    Technology,
    WarRecord,
)

ENLIGHTENMENT = "Enlightenment"
#: the happiness scales: political 1-5, national and religious 0-5; stability 1-4.
TOP_HAPPINESS, TOP_STABILITY = 5, 4
TRIBAL_STABILITY = 2


def same(a: str, b: str) -> bool:
    """The same name however spelt (issue 26.1: one spelling is the same without folding)."""
    return a == b or values.fold(a) == values.fold(b)


#: F17: words that do not count as shared.
_FILLER = {"of", "the", "and"}


def shares_a_word(a: str, b: str) -> bool:
    """§5: "shares a word between the two" (case-insensitive whole words, F17)."""
    def words(name: str) -> set[str]:
        return {w for w in re.findall(r"[\w'-]+", name.casefold()) if w not in _FILLER}
    return bool(words(a) & words(b))


@dataclass
class DecadesWorld(World):
    turn: int
    start_year: int | None
    states: dict[str, State] = field(default_factory=dict)
    provinces: dict[str, Province] = field(default_factory=dict)
    governments: dict[str, Government] = field(default_factory=dict)
    #: in the order they become available (year, then the tab's order)
    techs: list[Technology] = field(default_factory=list)
    alliances: dict[str, Alliance] = field(default_factory=dict)
    wars: list[WarRecord] = field(default_factory=list)
    holdings: Holdings = field(default_factory=Holdings)
    map: MapGraph = field(default_factory=MapGraph)
    #: the other religions and cultures named anywhere (orders may name them).
    religions: list[str] = field(default_factory=list)
    cultures: list[str] = field(default_factory=list)
    #: province -> timer kind -> paid so far (the Provinces tab's 'paid' columns).
    paid: dict[str, dict[str, Decimal]] = field(default_factory=dict)
    #: the states whose income / spendable cell was blank (a game entered mid-stream): both
    #: are reckoned before the turn's orders (:mod:`.phases.under_way`).
    blank_income: set[str] = field(default_factory=set)
    blank_spendable: set[str] = field(default_factory=set)
    #: what the GM should look at but does not stop the turn (a government's traits that
    #: its name contradicts): step 0 emits each as a public WARNING event, which the
    #: console, ``--json`` and the Log tab show.
    warnings: list[str] = field(default_factory=list)
    #: every state's name folded (built when first asked, kept as states are added)
    _state_folds: set[str] | None = field(default=None, repr=False)
    #: a tribe -> its open decision naming its civilized government (read once a turn by
    #: :func:`.phases.tech.civilizing`, kept as decisions are owed)
    civilizing: dict[str, Decision] | None = field(default=None, repr=False)
    #: the provinces' and continents' names, which no turn changes (issue 26.1: made once,
    #: not for each reader of orders)
    _place_names: tuple[values.Names, values.Names] | None = field(default=None, repr=False)
    #: who names whom (issue 26.1: satellites, unions and a dead state's ties scanned every
    #: state): "overlord" / "union_with" -> a state's name -> the states (live or gone) whose
    #: field names it; built when first asked, kept by :meth:`set_overlord` / :meth:`set_union`
    _named_by: dict[str, dict[str, set[str]]] | None = field(default=None, repr=False)
    #: each state's place in the States tab (built when first asked, kept by add_state)
    _rank: dict[str, int] | None = field(default=None, repr=False)
    #: a state -> the alliances listing it, in the tab's order (issue 26.1: alliance_of
    #: scanned every alliance); built when first asked, kept by the alliance methods below
    _alliances_of: dict[str, list[Alliance]] | None = field(default=None, repr=False)
    #: an alliance's name folded -> the first alliance so named (:meth:`alliance_named`)
    _alliance_folds: dict[str, Alliance] | None = field(default=None, repr=False)
    #: :meth:`free_partners` as of a version, bumped by a union made or ended (a state added
    #: or gone is added to or taken from the list, unless it is a union's junior partner)
    _version: int = field(default=0, repr=False)
    _free: tuple[int, list[str]] | None = field(default=None, repr=False)

    # -- names -----------------------------------------------------------------------------

    def names(self) -> dict[str, values.Names]:
        if self._place_names is None:
            continents = dict.fromkeys(p.continent for p in self.provinces.values())
            self._place_names = (values.Names(self.provinces), values.Names(continents))
        provinces, continents = self._place_names
        return {"player": values.Names(self.states), "province": provinces,
                "government": values.Names(self.governments),
                "religion": values.Names(self.religions),
                "culture": values.Names(self.cultures),
                "continent": continents}

    def emails(self) -> dict[str, str]:
        """Each state's orders come from its controller's player (form intake)."""
        return {s.name: self.states[self.controller(s)].email for s in self.states.values()}

    # -- states ------------------------------------------------------------------------------

    def free_state_name(self, capital: str) -> str:
        """``capital``, else 'capital (2)', 'capital (3)'...: the first that no state's name
        folds the same as (the names folded once, not once a new state: issue 26.1)."""
        if self._state_folds is None:
            self._state_folds = {values.fold(n) for n in self.states}
        name, n = capital, 1
        while values.fold(name) in self._state_folds:
            n += 1
            name = f"{capital} ({n})"
        return name

    def add_state(self, state: State) -> None:
        self.states[state.name] = state
        if self._state_folds is not None:
            self._state_folds.add(values.fold(state.name))
        if self._rank is not None:
            self._rank.setdefault(state.name, len(self._rank))
        if self._named_by is not None:
            for attr, named in self._named_by.items():
                if getattr(state, attr):
                    named.setdefault(getattr(state, attr), set()).add(state.name)
        if state.union_with:  # its senior partner is taken now
            self._version += 1
        elif self._free_now() and state.alive and not state.player and not self.unions(state):
            self._free[1].append(state.name)

    def mark_gone(self, state: State, status: str) -> None:
        """The state is no more (its row stays, with this status)."""
        state.status = status
        if state.union_with:  # its senior partner may be free now
            self._version += 1
        elif self._free_now() and state.name in self._free[1]:
            self._free[1].remove(state.name)

    def alive(self) -> Iterator[State]:
        return (s for s in list(self.states.values()) if s.alive)

    def government(self, state: State) -> Government:
        return self.governments[state.government]

    def tribal(self, state: State) -> bool:
        return self.government(state).tribal

    def controller(self, state: State) -> str:
        """Whose player gives this state's orders: its union partner's, or its own."""
        partner = self.states.get(state.union_with)
        return partner.name if partner is not None and partner.alive else state.name

    def played(self, state: State) -> bool:
        """A player state, or one in personal union with a player's state."""
        return bool(self.states[self.controller(state)].player)

    def owed_by(self, state: State) -> str:
        """Who answers a decision of this state: the state (its player writes the answer)
        or, for a non-player state, the GM."""
        return state.name if self.played(state) else GM

    def has_tech(self, state: State, tech: str) -> bool:
        return any(same(t, tech) for t in state.techs)

    def enlightened(self, state: State) -> bool:
        return self.has_tech(state, ENLIGHTENMENT)

    # -- alliances: every change of members through these, which keep the index -----------

    def alliances_listing(self, name: str) -> list[Alliance]:
        """The alliances whose members list ``name`` (whatever their size), in the tab's
        order."""
        if self._alliances_of is None:
            self._alliances_of = {}
            for alliance in self.alliances.values():
                for member in dict.fromkeys(alliance.members):
                    self._alliances_of.setdefault(member, []).append(alliance)
        return self._alliances_of.get(name, [])

    def alliance_of(self, state: State) -> Alliance | None:
        return next((a for a in self.alliances_listing(state.name) if len(a.members) > 1),
                    None)

    def allies(self, state: State) -> list[State]:
        alliance = self.alliance_of(state)
        return [self.states[m] for m in alliance.members if m != state.name
                and self.states[m].alive] if alliance else []

    def alliance_named(self, name: str) -> Alliance | None:
        """The first alliance whose name folds as ``name`` does (issue 26.1: one look-up, not
        a scan of every alliance for each alliance formed)."""
        if self._alliance_folds is None:
            self._alliance_folds = {}
            for alliance in self.alliances.values():
                self._alliance_folds.setdefault(values.fold(alliance.name), alliance)
        return self._alliance_folds.get(values.fold(name))

    def add_alliance(self, alliance: Alliance) -> None:
        self.alliances[alliance.name] = alliance
        if self._alliance_folds is not None:
            self._alliance_folds.setdefault(values.fold(alliance.name), alliance)
        for member in alliance.members:
            self._listed(alliance, member)

    def join_alliance(self, alliance: Alliance, name: str) -> None:
        alliance.members.append(name)
        self._listed(alliance, name)

    def leave_alliance(self, alliance: Alliance, name: str) -> None:
        alliance.members.remove(name)
        if name not in alliance.members:
            self._unlisted(alliance, name)

    def set_members(self, alliance: Alliance, names: list[str]) -> None:
        """The alliance's members become ``names`` (none: it is dissolved)."""
        was = dict.fromkeys(alliance.members)
        alliance.members[:] = names
        for member in was:
            if member not in names:
                self._unlisted(alliance, member)
        for member in names:
            self._listed(alliance, member)

    def _listed(self, alliance: Alliance, name: str) -> None:
        if self._alliances_of is None:
            return
        listing = self._alliances_of.setdefault(name, [])
        if not any(a is alliance for a in listing):
            listing.append(alliance)
            if len(listing) > 1:  # a state in two alliances, only as a slip: the tab's order
                order = {key: n for n, key in enumerate(self.alliances)}
                listing.sort(key=lambda a: order[a.name])

    def _unlisted(self, alliance: Alliance, name: str) -> None:
        if self._alliances_of is not None:
            self._alliances_of[name] = [a for a in self._alliances_of.get(name, [])
                                        if a is not alliance]

    # -- satellites and personal unions: every change through these, which keep the index --

    def set_overlord(self, state: State, overlord: str) -> None:
        self._point(state, "overlord", overlord)

    def set_union(self, state: State, senior: str) -> None:
        """``state`` enters a personal union with ``senior`` ('' = it leaves its own)."""
        self._point(state, "union_with", senior)
        self._version += 1

    def _point(self, state: State, attr: str, name: str) -> None:
        named = self._named(attr)
        was = getattr(state, attr)
        if was:
            named.get(was, set()).discard(state.name)
        if name:
            named.setdefault(name, set()).add(state.name)
        setattr(state, attr, name)

    def _named(self, attr: str) -> dict[str, set[str]]:
        if self._named_by is None:
            self._named_by = {"overlord": {}, "union_with": {}}
            for state in self.states.values():
                for key, named in self._named_by.items():
                    if getattr(state, key):
                        named.setdefault(getattr(state, key), set()).add(state.name)
        return self._named_by[attr]

    def naming(self, attr: str, state: State) -> list[State]:
        """The states (live or gone) whose ``attr`` ("overlord", "union_with") names
        ``state``, in the States tab's order."""
        names = self._named(attr).get(state.name)
        if not names:
            return []
        if len(names) > 1 and self._rank is None:
            self._rank = {name: n for n, name in enumerate(self.states)}
        return [self.states[n] for n in sorted(names, key=lambda n: self._rank[n])] \
            if len(names) > 1 else [self.states[n] for n in names]

    def satellites(self, state: State) -> list[State]:
        return [s for s in self.naming("overlord", state) if s.alive]

    def unions(self, state: State) -> list[State]:
        return [s for s in self.naming("union_with", state) if s.alive]

    def free_partners(self) -> list[str]:
        """§10: the live states no player plays and in no personal union (on either side),
        in the tab's order (issue 26.1: found once while no union, new state or gone state
        changes them, not once a union rolled)."""
        if not self._free_now():
            seniors = {s.union_with for s in self.alive() if s.union_with}
            self._free = (self._version, [s.name for s in self.alive() if not s.player and
                                          not s.union_with and s.name not in seniors])
        return list(self._free[1])

    def _free_now(self) -> bool:
        return self._free is not None and self._free[0] == self._version

    def union_partners(self, state: State) -> list[str]:
        """Those a Feudal Monarchy's personal union may take (§10, F52): the free partners
        but itself and its overlord."""
        partners = self.free_partners()
        for taken in {state.name, state.overlord}:
            if taken in partners:
                partners.remove(taken)
        return partners

    # -- provinces and values ------------------------------------------------------------------

    def value(self, province: Province) -> int:
        """§16: an unsettled province "has an economic value of only 1 until it is
        colonized"; §2b: a settled one is "worth the economic value displayed on the map"."""
        return 1 if province.unsettled else province.value

    def provinces_of(self, state: State) -> list[Province]:
        """The state's provinces, in the order it took them (kept by :attr:`holdings`, not
        looked up among every province each time: issue 26.1)."""
        return self.holdings.rows(state.name)

    def economic_value(self, state: State) -> int:
        return sum(self.value(p) for p in self.provinces_of(state))

    def share(self, state: State, test: Callable[[Province], bool]) -> Fraction:
        """The share of the state's economic value in provinces passing ``test``."""
        base = part = 0
        for province in self.provinces_of(state):  # one pass (issue 26.1)
            worth = self.value(province)
            base += worth
            if test(province):
                part += worth
        return Fraction(part, base) if base else Fraction(0)

    def mismatched(self, state: State, province: Province) -> bool:
        return not same(province.religion, state.religion) or \
            not same(province.culture, state.culture)

    def max_happiness(self, state: State) -> Fraction:
        """§6: each province not matching the state's religion or culture "detracts from the
        maximum happiness of the state according to it's proportion" (F30: once each)."""
        return TOP_HAPPINESS * (1 - self.share(state, lambda p: self.mismatched(state, p)))

    def collapsed(self, state: State) -> bool:
        """§8's collapse penalty, from the state as it stands: at stability 1, a state holding
        a single province (however it came to hold one), or one that took the penalty so and
        holds more now, since only improving stability removes it (F44). Above 1 it never
        holds: improving stability is the only way up from 1."""
        return state.stability == 1 and (state.collapse or
                                         self.holdings.count(state.name) == 1)

    def set_owner(self, province: Province, owner: str) -> str:
        return self.holdings.set_owner(province, owner)

    def best_province(self, names: list[str]) -> str:
        """The most valuable of these provinces (the first listed on a tie)."""
        return max(names, key=lambda n: (self.value(self.provinces[n]),
                                         -self.provinces[n].row), default="")

    # -- writing back ------------------------------------------------------------------------

    def techs_behind(self, state: State, available: list[str]) -> int:
        return sum(1 for t in available if not self.has_tech(state, t))

    def available(self, turn: int | None = None) -> list[str]:
        """The technologies available by ``turn`` (default: this one): those whose year is
        no later than the turn's last year (§11 "at the time the new technology becomes
        available")."""
        if self.start_year is None:
            return []
        last = self.start_year + 10 * (self.turn if turn is None else turn) - 1
        return [t.name for t in self.techs if t.year <= last]


COLONIZATION, RELIGION_CONVERSION, CULTURE_CONVERSION = (
    "colonization", "religious conversion", "cultural conversion")
PAID_COLUMNS = {"colonization paid": COLONIZATION,
                "religion conversion paid": RELIGION_CONVERSION,
                "culture conversion paid": CULTURE_CONVERSION}


def anarchy(world: DecadesWorld, state: State) -> bool:
    """§8 "At 2 Stability, the Anarchy modifier comes into effect"; §9 "Anarchy is not
    eliminated except through increasing stability" (F42: at 1 too); "Tribals are not
    affected by Anarchy"."""
    return state.stability <= 2 and not world.tribal(state)


def two_places(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"))


__all__ = ["shares_a_word", "COLONIZATION", "CULTURE_CONVERSION", "DecadesWorld", "ENLIGHTENMENT",
           "RELIGION_CONVERSION", "TOP_HAPPINESS", "TOP_STABILITY", "TRIBAL_STABILITY",
           "anarchy", "same"]

"""The card-effect vocabulary: what a GM writes in the Cards tab's effects, reward, needs and
cost cells, read into :class:`Effect` values and checked when the game loads.

The source prints no card text ("Cards ... grant effects, specified on the cards"), so each
card is data in this small language. A cell holds clauses separated by ';', each a name, at
most one whole number (signed where it may be negative) and, for some, a word after it:

    effects:  food 1; battle bonus 1 attack; deficit loss 1 per food; points per factory 2
    reward:   build Factory; draw admin 1; prosperity 2
    needs:    production 3            (blank: every slot of the card full, F25)
    cost:     discard admin 1

:data:`STATIC` lists the effects column's clauses (in force while the card is in play, for
the round of a global event, in the battles of a played military card, at the end for an
ambition); :data:`REWARDS` the reward column's (an activation's, or an admin card's when
played). The README's "card-effect vocabulary" table is this module's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sheetmaster.kit import BadValue, values

DEVELOPMENT, ADMIN, MILITARY, GLOBAL_EVENT, AMBITION = (
    "development", "admin", "military", "global event", "ambition")
DECKS = (DEVELOPMENT, ADMIN, MILITARY, GLOBAL_EVENT, AMBITION)

#: what an ambition's 'points per' counts, at the end of the game.
POINTS_PER = ("province", "city", "factory", "farm", "market", "pop", "regiment", "institution",
              "technology", "trade route", "battle won")


@dataclass(frozen=True)
class Effect:
    """One clause: ``name`` (e.g. 'battle bonus'), its number and its word after it."""

    name: str
    amount: int = 0
    word: str = ""

    def __str__(self) -> str:
        number = "" if not self.amount and self.name in _NO_NUMBER else f" {self.amount}"
        return f"{self.name}{number}{' ' + self.word if self.word else ''}"


@dataclass(frozen=True)
class Spec:
    """How a clause is written and which decks' cards may carry it."""

    #: 'none' (no number), 'whole' (>= 0), 'signed' (any whole number); 0 means nothing
    number: str
    decks: tuple[str, ...]
    #: words allowed after the number ('' = none); None: any improvement type (build)
    words: tuple[str, ...] | None = ("",)
    meaning: str = ""


_EVERY_TURN = (DEVELOPMENT, GLOBAL_EVENT)
STATIC: dict[str, Spec] = {
    "food": Spec("signed", _EVERY_TURN, meaning="+N food output each turn"),
    "production": Spec("signed", _EVERY_TURN, meaning="+N production each turn"),
    "commerce": Spec("signed", _EVERY_TURN, meaning="+N commerce each turn"),
    "prosperity": Spec("signed", _EVERY_TURN, meaning="+N prosperity each turn, at collection"),
    "food per production token": Spec(
        "whole", (DEVELOPMENT,), meaning="+N food each turn per production token on this card "
        "(Industrial Agriculture); its tokens stay (F27)"),
    "war actions": Spec("signed", _EVERY_TURN, meaning="actions in a war (communication "
                        "technologies; added up)"),
    "battle bonus": Spec("signed", (DEVELOPMENT, GLOBAL_EVENT, MILITARY),
                         ("", "attack", "defence", "marked"),
                         "+N to the battle score; 'attack' / 'defence': only attacking / "
                         "defending; 'marked' (military cards): only in the province the card "
                         "marks"),
    "deficit loss": Spec("whole", _EVERY_TURN, ("", "per food"),
                         "prosperity lost on a food deficit (food technologies): N, or N per "
                         "missing food"),
    "pops per market": Spec("whole", _EVERY_TURN, meaning="pops that may work one market "
                            "(infrastructure technologies; the highest counts)"),
    "farms per pop": Spec("whole", _EVERY_TURN, meaning="farms one pop may work (agricultural "
                          "technologies; the highest counts; 1 without)"),
    "move pops": Spec("whole", _EVERY_TURN, meaning="pops it may move one province at the "
                      "end of its turn"),
    "move regiments": Spec("whole", _EVERY_TURN, meaning="regiments it may move one province "
                           "at the end of its turn"),
    "great war": Spec("none", (GLOBAL_EVENT,), meaning="every nation fights the war this round"),
    "conquest": Spec("none", (AMBITION,), meaning="its holder may declare war once a round"),
    "points": Spec("whole", (AMBITION,), meaning="N victory points at the end"),
    "aggressive": Spec("none", (ADMIN,), meaning="playing it at a nation is an aggressive act "
                       "against that nation (F44)"),
    "diplomatic action": Spec("none", (ADMIN,), meaning="spent to declare war on a nation that "
                              "acted aggressively against you (F44)"),
}
for _subject in POINTS_PER:
    STATIC[f"points per {_subject}"] = Spec("whole", (AMBITION,),
                                            meaning=f"N victory points per {_subject}")

REWARDS: dict[str, Spec] = {
    "build": Spec("none", (DEVELOPMENT, ADMIN), None,
                  "build an improvement of that type ('any': the order says which) in a "
                  "province you control"),
    "draw admin": Spec("whole", (DEVELOPMENT, ADMIN), meaning="draw N admin cards"),
    "draw military": Spec("whole", (DEVELOPMENT, ADMIN), meaning="draw N military cards"),
    "search technology": Spec("none", (DEVELOPMENT, ADMIN),
                              meaning="take a technology of the development deck, play it, "
                              "shuffle the deck (F34)"),
    "prosperity": Spec("signed", (DEVELOPMENT, ADMIN), meaning="+N prosperity once"),
    "convert": Spec("whole", (DEVELOPMENT, ADMIN),
                    meaning="N minority or occupied pops in a province you control become "
                    "yours (F11)"),
    "exterminate": Spec("whole", (DEVELOPMENT, ADMIN),
                        meaning="remove N minority or occupied pops in a province you control"),
    "trade token": Spec("none", (DEVELOPMENT, ADMIN), meaning="place your trade token on a "
                        "route (F50)"),
    "remove trade token": Spec("none", (DEVELOPMENT, ADMIN),
                               meaning="take another nation's trade token off a route"),
    "regiment": Spec("none", (DEVELOPMENT, ADMIN),
                     meaning="raise a regiment in a province you control where you have a pop "
                     "and no regiment stands"),
}
#: the cost column's clauses.
COSTS: dict[str, Spec] = {
    "discard admin": Spec("whole", (DEVELOPMENT,), meaning="discard N admin cards from hand"),
    "discard military": Spec("whole", (DEVELOPMENT,), meaning="discard N military cards"),
    "prosperity": Spec("whole", (DEVELOPMENT,), meaning="lose N prosperity"),
}
_NO_NUMBER = {name for table in (STATIC, REWARDS) for name, spec in table.items()
              if spec.number == "none"}

_NUMBER = re.compile(r"^[+-]?[0-9]+$")


def parse_clauses(cell: str, table: dict[str, Spec], deck: str,
                  improvements: tuple[str, ...] = ()) -> tuple[Effect, ...]:
    """The clauses of one cell; raises BadValue naming the first clause that is wrong."""
    out = []
    for clause in values.name_list(cell.replace(";", "\n")):
        effect = _clause(clause, table, deck, improvements)
        if effect is not None:
            out.append(effect)
    return tuple(out)


#: "a clause of 0 in the card vocabulary means nothing rather than an error" (issue 29.9): a
#: GM copying a card whose printed number is 0 ('food 0') writes it as printed.
ZERO_RULE = "A clause whose number is 0 does nothing: it is read and left out."


def _clause(clause: str, table: dict[str, Spec], deck: str,
            improvements: tuple[str, ...]) -> Effect | None:
    """One clause read; None for a clause of 0, which means nothing (:data:`ZERO_RULE`)."""
    words = clause.split()
    at = next((i for i, w in enumerate(words) if _NUMBER.match(w)), None)
    head = words if at is None else words[:at]
    tail = [] if at is None else words[at + 1:]
    name = values.fold(" ".join(head))
    spec = table.get(name)
    word = " ".join(tail)
    if spec is None and at is None:  # 'build Factory': the word follows the name
        for known in sorted(table, key=len, reverse=True):
            if name.startswith(known + " ") and table[known].words is None:
                spec, word, name = table[known], " ".join(head[len(known.split()):]), known
                break
    if spec is None:
        raise BadValue(f"{values.show(clause)}: {_unknown(name, table)}")
    if deck not in spec.decks:
        raise BadValue(f"{values.show(clause)}: '{name}' is for {values.or_list(spec.decks)} "
                       f"cards, not {deck} cards")
    amount = 0
    if spec.number == "none":
        if at is not None:
            raise BadValue(f"{values.show(clause)}: '{name}' takes no number")
    else:
        if at is None:
            raise BadValue(f"{values.show(clause)}: '{name}' needs a number, e.g. '{name} 1'")
        amount = int(words[at])
        if spec.number == "whole" and amount < 0:
            raise BadValue(f"{values.show(clause)}: '{name}' needs a number of 0 or more")
    word = _word(clause, name, word, spec, deck, improvements)  # checked, even for a 0
    return None if spec.number != "none" and amount == 0 else Effect(name, amount, word)


def _word(clause: str, name: str, word: str, spec: Spec, deck: str,
          improvements: tuple[str, ...]) -> str:
    if spec.words is None:  # build: an improvement type or 'any'
        allowed = (*improvements, "any")
        found = values.Names(allowed).get(word) if word else None
        if found is None:
            raise BadValue(f"{values.show(clause)}: say what to build: "
                           f"{values.or_list(allowed)}")
        return found
    folded = values.fold(word)
    if folded not in spec.words:
        shown = values.or_list([repr(w) for w in spec.words if w])
        raise BadValue(f"{values.show(clause)}: '{name}' takes " +
                       (f"{shown} after the number" if any(spec.words) else "nothing more"))
    if folded == "marked" and deck != MILITARY:
        raise BadValue(f"{values.show(clause)}: only military cards mark a province")
    return folded


def _unknown(name: str, table: dict[str, Spec]) -> str:
    return f"'{name}' is not in the vocabulary (see the README: " \
           f"{', '.join(sorted(n for n in table if not n.startswith('points per ')))}" \
           f"{', points per ...' if 'points' in table else ''})"


def total(effects: list[Effect], name: str, word: str | None = None) -> int:
    """The clauses' numbers added up (only those with ``word``, when given)."""
    return sum(e.amount for e in effects if e.name == name and (word is None or e.word == word))


def highest(effects: list[Effect], name: str, default: int) -> int:
    """The highest number of the clauses, or ``default`` when there are none."""
    found = [e.amount for e in effects if e.name == name]
    return max(found) if found else default


__all__ = ["ADMIN", "AMBITION", "COSTS", "DECKS", "DEVELOPMENT", "Effect", "GLOBAL_EVENT",
           "MILITARY", "POINTS_PER", "REWARDS", "STATIC", "highest", "parse_clauses", "total"]

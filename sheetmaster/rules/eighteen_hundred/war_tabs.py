"""1800's war tabs, written by sheetmaster: the wars declared (Wars), the aggressive acts a
Diplomatic Action may answer (Aggressions) and the battles fought (Battles)."""

from __future__ import annotations

from dataclasses import dataclass

from sheetmaster.kit import Column, Kind, Table

CONQUEST, DIPLOMATIC, GREAT_WAR = "conquest", "diplomatic action", "great war"
#: what the Wars tab says of a declaration by Conquest: it reveals no ambition (F43)
DECLARED = "declared"


@dataclass(slots=True)
class War:
    round: int
    declarer: str
    target: str
    by: str
    responding_to: str
    row: int = 0


@dataclass(slots=True)
class Aggression:
    """An aggressive act (F44): ``step`` is the actor's place in the round's turn order
    (1 up), or 0 for the war step, after every turn."""

    round: int
    step: int
    by: str
    against: str
    act: str
    row: int = 0


@dataclass(slots=True)
class Battle:
    round: int
    province: str
    attacker: str
    defender: str
    attacker_score: int
    defender_score: int
    winner: str
    loser: str
    how: str
    row: int = 0


def _owned(name: str, kind: Kind, text: str, **kw) -> Column:
    return Column(name, kind, text, owned=True, **kw)


WARS = Table(
    "Wars",
    (
        _owned("round", Kind.WHOLE, "the round the war is fought"),
        _owned("declarer", Kind.REF, "who declared it", ref="Nations"),
        _owned("target", Kind.REF, "on whom", ref="Nations"),
        _owned("by", Kind.TEXT, "'diplomatic action', 'great war', or 'declared' (a declaration "
               "whose grounds are its declarer's secret)"),
        _owned("responding to", Kind.TEXT, "the aggressive act a Diplomatic Action answers"),
    ),
    help="Wars declared, written by sheetmaster; each is fought in its round's war step.",
    noun="war",
    entity=War,
)

AGGRESSIONS = Table(
    "Aggressions",
    (
        _owned("round", Kind.WHOLE, "the round of the act"),
        _owned("step", Kind.WHOLE, "the actor's place in that round's turns (0: the war step)"),
        _owned("by", Kind.REF, "who did it", ref="Nations"),
        _owned("against", Kind.REF, "against whom", ref="Nations"),
        _owned("act", Kind.TEXT, "what was done"),
    ),
    help="Aggressive acts (F44), written by sheetmaster: a Diplomatic Action may answer one "
         "done since its player's last turn.",
    noun="aggressive act",
    entity=Aggression,
)

BATTLES = Table(
    "Battles",
    (
        _owned("round", Kind.WHOLE, "the round of the war"),
        _owned("province", Kind.REF, "where it was fought", ref="Provinces"),
        _owned("attacker", Kind.REF, "who moved in", ref="Nations"),
        _owned("defender", Kind.REF, "whose regiment stood there", ref="Nations"),
        _owned("attacker score", Kind.WHOLE, "supporting regiments + technology + cards"),
        _owned("defender score", Kind.WHOLE, "supporting regiments + technology + cards"),
        _owned("winner", Kind.REF, "who won", ref="Nations"),
        _owned("loser", Kind.REF, "whose regiment was removed", ref="Nations"),
        _owned("how", Kind.TEXT, "how it was decided"),
    ),
    help="Battles fought, written by sheetmaster.",
    noun="battle",
    entity=Battle,
)

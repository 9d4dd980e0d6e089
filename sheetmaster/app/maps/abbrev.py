"""Short names for a crowded map: what a name becomes when it finds no free place on a map
already as wide as a chat preview allows, with the whole name in the legend's key.

Diplomacy's convention: three letters, the name's first three where no other name took them
("Burgundy" -> "Bur"), a name of several words its first word's initial and the next word's
first two ("East Prussia" -> "EPr", "Irish Sea" -> "ISe"); a name of four letters or fewer
is as short as a code already and stays whole. Each code depends only on the set of names
(never on owners), so a province keeps its code from turn to turn.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator

#: a name this long or shorter is never abbreviated.
SHORT = 4
_WORD = re.compile(r"[^\W_]+")


def abbreviations(names: Iterable[str]) -> dict[str, str]:
    """Each name's code, unique among every code and every name (case aside); a name whose
    every code is taken keeps itself."""
    ordered = sorted(set(names), key=lambda n: (n.casefold(), n))
    taken = {n.casefold() for n in ordered}
    out: dict[str, str] = {}
    for name in ordered:
        out[name] = name
        if len(name) <= SHORT:
            continue
        for code in _candidates(name):
            if code.casefold() not in taken:
                taken.add(code.casefold())
                out[name] = code
                break
    return out


def _candidates(name: str) -> Iterator[str]:
    """Codes for ``name``, the likeliest first: a name of several words, its initial and the
    second word's first two; its first three letters; its first letter and any two later
    ones; then four letters the same way."""
    words = _WORD.findall(name)
    if not words:
        return
    letters = "".join(words)
    if len(words) >= 2:
        yield words[0][0].upper() + _cased(words[1][:2])
    yield _cased(letters[:3])
    for length in (3, 4):
        for rest in itertools.combinations(letters[1:], length - 1):
            yield _cased(letters[0] + "".join(rest))


def _cased(code: str) -> str:
    return code[:1].upper() + code[1:].lower()

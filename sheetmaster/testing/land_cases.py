"""Land-move test cases written as text, DATC style: orders with their expected results, then
where every unit ends up. For the tests of ``sheetmaster.rules.common.land_moves`` and of the
rulesets built on it.

One order a line, ``Owner Province`` then the order; the unit's id is ``Owner Province``::

    Italy ven - tri           ok: moved to tri, dislodging Austria tri
    Italy tyr S ven - tri     ok: support given to Italy ven moving to tri
    Austria alb S tri - ser   fails: supported unit did not move to ser: ...
    Austria tri H             fails: dislodged by Italy ven from ven
    Red Bingo C Sanuki        ok: cut the support given by Blue Sanuki from Sanuki

``H`` hold, ``- X`` move to X, ``S X`` support the unit in X holding, ``S X - Y`` support the
unit in X moving to Y, ``C X`` cut the supports given from X. After ``ok:`` or ``fails:``
comes the exact reason the order's result cell gets.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from sheetmaster.rules.common import land_moves as lm

_LINE = re.compile(r"(?P<owner>\S+) (?P<at>\S+) (?P<order>.*?)\s+(?P<flag>ok|fails): "
                   r"(?P<reason>.*)")


@dataclass(frozen=True)
class Expected:
    succeeded: bool
    reason: str


def parse(text: str) -> list[tuple[lm.LandOrder, Expected]]:
    """Orders and their expected results, one a line (blank lines skipped)."""
    out = []
    for line in filter(None, (raw.strip() for raw in text.splitlines())):
        m = _LINE.fullmatch(line)
        if m is None:
            raise ValueError(f"not a case line: {line!r}")
        owner, at, words = m["owner"], m["at"], m["order"].split()
        unit = f"{owner} {at}"
        if words == ["H"]:
            order = lm.hold(unit, owner, at)
        elif words[0] == "-" and len(words) == 2:
            order = lm.move(unit, owner, at, words[1])
        elif words[0] == "C" and len(words) == 2:
            order = lm.cut(unit, owner, at, words[1])
        elif words[0] == "S" and len(words) == 2:
            order = lm.support_hold(unit, owner, at, words[1])
        elif words[0] == "S" and len(words) == 4 and words[2] == "-":
            order = lm.support_move(unit, owner, at, words[1], words[3])
        else:
            raise ValueError(f"not an order: {m['order']!r} in {line!r}")
        out.append((order, Expected(m["flag"] == "ok", m["reason"])))
    return out


def anywhere(a: str, b: str) -> bool:
    """Adjacency for cases taken from valid DATC orders: every order already reaches."""
    return True


def check(orders: str, after: str, dislodged: str = "",
          adjacent: Callable[[str, str], bool] = anywhere,
          bonus: Callable[[lm.LandOrder], int] | None = None) -> dict[str, lm.Outcome]:
    """Adjudicate the orders and assert every expected result, where every unit that was not
    dislodged ends (``after``: "Owner Province, ..."; "same" when nothing moves), and which
    units were dislodged ("Owner Province, ...", where they stood)."""
    cases = parse(orders)
    outcomes = lm.adjudicate([order for order, _ in cases], adjacent, bonus)
    got = {o.order.unit: Expected(o.succeeded, o.reason) for o in outcomes.values()}
    assert got == {order.unit: want for order, want in cases}
    if after == "same":
        after = ", ".join(order.unit for order, _ in cases)
    standing = sorted(f"{o.order.owner} {o.ends_at}" for o in outcomes.values()
                      if not o.dislodged)
    assert standing == sorted(_names(after))
    assert sorted(u for u, o in outcomes.items() if o.dislodged) == sorted(_names(dislodged))
    return outcomes


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]

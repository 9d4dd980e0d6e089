"""What must hold after every clans turn, for the fuzzer (testkit/fuzzing/).

A clan's turn comes at its first posted row, rejected or not: any row of a clan may move its
whole turn, and with it the order of the season's dice. So a rejected clans row is not inert
the way a claims row is, and the fuzzer keeps every kind when it checks inertness
(:data:`REJECTION_MATTERS`); these invariants check what rejected rows must not do instead.
"""

from __future__ import annotations

from sheetmaster.kit import values
from sheetmaster.kit.model import Status, TurnResult
from sheetmaster.rules.clans.orders import ORDER_KINDS

#: every clans order kind: see the module's docstring.
REJECTION_MATTERS = frozenset(k.name for k in ORDER_KINDS)
#: what a rejected order may not have made happen, by kind: its own effect's log words.
_EFFECT_WORDS = {"raise army": "raised ", "build improvement": "built a ",
                 "hire advisor": "hired ", "give coins": "gave ", "move capital": "moved the "}


def clans_invariants(result: TurnResult) -> list[str]:
    turn = result.turn
    out: list[str] = []
    after = result.after.tables
    owners = dict(zip(after["Provinces"]["province"].tolist(),
                      after["Provinces"]["owner"].tolist()))
    for clan, coins in zip(after["Clans"]["clan"].tolist(), after["Clans"]["coins"].tolist()):
        if not isinstance(coins, int) or coins < 0:
            out.append(f"turn {turn}: clan {clan} has {coins!r} coins")
    for province, built in zip(after["Provinces"]["province"].tolist(),
                               after["Provinces"]["improvements"].tolist()):
        if len(values.name_list(built)) > 4:
            out.append(f"turn {turn}: {province} has more than 4 improvements: {built}")
    log = "\n".join(e.text for e in result.events)
    for tab, name_column in (("Armies", "army"), ("Advisors", "skill")):
        before, now = result.before.tables[tab], after[tab]
        for row, status in zip(before.index, before["status"].tolist()):
            if values.text(status).casefold().startswith("gone") and \
                    values.text(now.at[row, "status"]) != values.text(status):
                out.append(f"turn {turn}: {tab} row {row} was gone and came back")
        for row, name, status in zip(now.index, now[name_column].tolist(),
                                     now["status"].tolist()):
            was = before["status"].get(row) if row in before.index else None
            if values.text(status).startswith("gone") and values.is_blank(was) and \
                    str(name) not in log:
                out.append(f"turn {turn}: {tab} row {row} ({name}) went without a Log line")
    for row, clan, province, status in zip(
            after["Armies"].index, *(after["Armies"][c].tolist()
                                     for c in ("clan", "province", "status"))):
        if not values.text(status) and values.text(owners.get(province)) != values.text(clan):
            out.append(f"turn {turn}: Armies row {row}: {clan or 'an Independent army'} in "
                       f"{province}, held by {owners.get(province) or 'the Independents'}")
    for r in result.results:
        words = _EFFECT_WORDS.get(r.kind)
        if r.status is Status.REJECTED and words and words in r.reason:
            out.append(f"turn {turn}: rejected row {r.row} says it did it: {r.reason}")
    return out

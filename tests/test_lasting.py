"""State across turns in engine-owned tabs: timers (start, count down, pause, cancel with
refund, complete citing the order row that started them), decisions owed with a default, and
decks whose order lasts between turns and cannot be read in the sheet; GM-only orders."""

from __future__ import annotations

from decimal import Decimal

import pytest
from toy import play, ruleset, state

from sheetmaster.engine.turn import resolve
from sheetmaster.kit.dice import ScriptedDice
from sheetmaster.kit.model import GM_ONLY, PRIVATE, PUBLIC, Status
from sheetmaster.kit.orders import Field, OrderKind
from sheetmaster.kit.ruleset import Phase


def build_fort(ctx) -> None:
    """'pay' starts a fort that takes 2 turns; 'hold' pauses it, 'cut' cancels it (half back).
    Due forts complete."""
    for timer in ctx.timers.due("fort"):
        ctx.timers.complete(timer, f"the fort in {timer.subject} is built")
    for order in ctx.orders("pay"):
        ctx.timers.start("fort", order.player, "A", 2, order_row=order.row,
                         paid=order.fields["amount"], data={"land": "A"})
        ctx.resolve(order, Status.APPLIED, "fort started")
    for order in ctx.orders("hold"):
        for timer in ctx.timers.find(kind="fort", owner=order.player):
            ctx.timers.pause(timer, "the builders are on strike")
        ctx.resolve(order, Status.APPLIED, "paused")
    for order in ctx.orders("move"):
        for timer in ctx.timers.find(kind="fort", owner=order.player, status="paused"):
            ctx.timers.resume(timer, "back to work")
        ctx.resolve(order, Status.APPLIED, "resumed")
    for order in ctx.orders("cut"):
        for timer in ctx.timers.find(kind="fort", owner=order.player):
            refund = ctx.timers.cancel(timer, "called off", Decimal("0.5"))
            ctx.world.realms[order.player].coins += refund
        ctx.resolve(order, Status.APPLIED, "cancelled")


def fort_rules():
    return ruleset(Phase("f", "forts", build_fort, orders=("pay", "hold", "move", "cut")),
                   lasting=("timers",))


def timers(result) -> list[dict]:
    return result.after.tables["Timers"].to_dict("records")


def next_turn(rules, result, orders=()):
    """The next turn, from this one's tabs (as a store would write and read them back)."""
    tabs = ("Realms", "Lands", "Units", "Timers")
    return resolve(rules, state(rules, orders, turn=result.turn + 1, tables={
        tab: result.after.tables[tab].to_dict("records") for tab in tabs}), seed=1)


def test_a_timer_started_by_an_order_completes_later_citing_that_row():
    rules = fort_rules()
    first = play(rules, [{"player": "Stark", "order": "pay", "amount": 3}])
    [row] = timers(first)
    assert (row["timer"], row["kind"], row["owner"], row["order row"], row["turns left"],
            row["due on turn"], row["paid"], row["status"], row["data"]) == \
        ("T1", "fort", "Stark", 2, 2, 3, 3, "running", "land: A")
    second = next_turn(rules, first)
    assert timers(second)[0]["turns left"] == 1
    third = next_turn(rules, second)
    assert timers(third)[0]["status"] == "done"
    done = [e.text for e in third.events if e.kind == "timer done"]
    assert done == ["the fort in A is built (fort T1, started by order row 2 on turn 1)"]


def test_a_paused_timer_does_not_count_down_and_a_cancelled_one_refunds():
    """Turns 2 (paused in it), 3 (paused) and 4 (resumed in it) do not count: the fort
    started on turn 1 with 2 turns to go still has 2 after turn 4, due on turn 6."""
    rules = fort_rules()
    first = play(rules, [{"player": "Stark", "order": "pay", "amount": 4}])
    paused = next_turn(rules, first, [{"player": "Stark", "order": "hold", "unit": "x"}])
    assert (timers(paused)[0]["status"], timers(paused)[0]["turns left"],
            timers(paused)[0]["due on turn"]) == ("paused", 2, 0)
    still = next_turn(rules, paused)
    assert timers(still)[0]["turns left"] == 2
    resumed = next_turn(rules, still, [{"player": "Stark", "order": "move", "unit": "x",
                                        "to": "B"}])
    assert (timers(resumed)[0]["status"], timers(resumed)[0]["turns left"],
            timers(resumed)[0]["due on turn"]) == ("running", 2, 6)
    cancelled = next_turn(rules, still, [{"player": "Stark", "order": "move", "unit": "x",
                                          "to": "B"},
                                         {"player": "Stark", "order": "cut", "unit": "x",
                                          "to": "B"}])
    assert timers(cancelled)[0]["status"] == "cancelled"
    realms = cancelled.after.tables["Realms"].set_index("realm")
    assert realms.at["Stark", "coins"] == 7  # 5 + half of 4
    assert any("refund 2 of 4 paid (T1, started by order row 2 on turn 1)" in e.text
               for e in cancelled.events)


def test_a_cancelled_timer_refunds_what_the_rules_work_out():
    """A rule that refunds half rounded down gives the amount itself."""
    from sheetmaster.kit.timers import RUNNING, Timer, Timers

    timer = Timer("T1", "fort", "Stark", "A", 1, 2, 1, 3, Decimal(41), RUNNING, "")
    lines = []
    timers = Timers(2, [timer], lambda *a, **k: lines.append(a[2]))
    assert timers.cancel(timer, "occupied", refund=41 // 2) == 20
    assert "refund 20 of 41 paid" in lines[0] and timer.status == "cancelled"


def _laid_out_rules():
    """The fort rules with the detail 'land' in a column of its own; a row naming no land of
    the Lands tab is refused."""
    from sheetmaster.kit import Column, Kind, TimerLayout

    def check(world, rows, problems) -> None:
        for timer in rows:
            if timer.live and timer.details["land"] not in world.lands:
                problems.add("Timers", timer.row, "land", f"'{timer.details['land']}' is no land")

    layout = TimerLayout((Column("land", Kind.TEXT, "the land the fort stands in", owned=True),),
                         check, "move 'land: X' into the column 'land'")
    return ruleset(Phase("f", "forts", build_fort, orders=("pay", "hold", "move", "cut")),
                   lasting=("timers",), timer_layout=layout)


def test_a_timer_layout_keeps_details_in_columns_of_their_own_and_checks_them():
    from sheetmaster.kit.schema import StateError

    rules = _laid_out_rules()
    first = play(rules, [{"player": "Stark", "order": "pay", "amount": 4}])
    [row] = timers(first)
    assert "data" not in row and row["land"] == "A"
    later = next_turn(rules, next_turn(rules, first))
    assert (timers(later)[0]["status"], timers(later)[0]["land"]) == ("done", "A")
    assert any("the fort in A is built" in e.text for e in later.events)
    wrong = [{**row, "land": "Z"}]
    with pytest.raises(StateError, match="tab 'Timers', row 2, column 'land': 'Z' is no land"):
        resolve(rules, state(rules, turn=2, tables={"Timers": wrong}), seed=1)
    old = state(rules, turn=2, tables={"Timers": [row]})
    old.tables["Timers"] = old.tables["Timers"].drop(columns=["land"]).assign(data="land: A")
    with pytest.raises(StateError, match="column 'data': move 'land: X' into the column"):
        resolve(rules, old, seed=1)


def occupy(ctx) -> None:
    """'pay' starts an open-ended occupation of A (it lasts until the rules end it); 'cut'
    ends it; it is never due however many turns pass."""
    assert ctx.timers.due("occupation") == []
    for order in ctx.orders("pay"):
        ctx.timers.start("occupation", order.player, "A", None, order_row=order.row)
        ctx.resolve(order, Status.APPLIED, "occupied")
    for order in ctx.orders("cut"):
        for timer in ctx.timers.find(kind="occupation", owner=order.player):
            ctx.timers.complete(timer, "A is liberated")
        ctx.resolve(order, Status.APPLIED, "liberated")


def test_a_timers_tab_without_a_column_is_refused_naming_it():
    """Was: AssertionError from loading the rows, instead of the missing column's problem."""
    from sheetmaster.kit.schema import StateError

    rules = fort_rules()
    game = state(rules, tables={"Timers": timers(play(rules, [
        {"player": "Stark", "order": "pay", "amount": 3}]))})
    game.tables["Timers"] = game.tables["Timers"].drop(columns=["paid"])
    with pytest.raises(StateError, match="tab 'Timers', row 1, column 'paid'"):
        resolve(rules, game, seed=1)


def test_an_open_ended_timer_has_no_due_turn_and_lasts_until_the_rules_end_it():
    rules = ruleset(Phase("o", "occupation", occupy, orders=("pay", "cut")),
                    lasting=("timers",))
    first = play(rules, [{"player": "Stark", "order": "pay", "amount": 1}])
    [row] = timers(first)
    assert (row["turns left"], row["due on turn"], row["status"]) == (None, None, "running")
    assert any("occupation started: A, with no set end (T1)" in e.text for e in first.events)
    later = next_turn(rules, next_turn(rules, next_turn(rules, first)))
    assert (timers(later)[0]["turns left"], timers(later)[0]["status"]) == (None, "running")
    ended = next_turn(rules, later, [{"player": "Stark", "order": "cut", "unit": "x",
                                      "to": "A"}])
    assert timers(ended)[0]["status"] == "done"
    assert [e.text for e in ended.events if e.kind == "timer done"] == [
        "A is liberated (occupation T1, started by order row 2 on turn 1)"]


def owe_and_take(ctx) -> None:
    for decision in ctx.decisions.take("government"):
        ctx.emit(decision.owed_by, "trace", f"{decision.owed_by} takes {decision.choice}")
    for order in ctx.orders("pay"):
        ctx.decisions.owe(order.player, "government", "Which government after the revolution?",
                          ["Monarchy", "Republic"], "Monarchy")
        ctx.resolve(order, Status.APPLIED, "owed")


def decision_rules():
    return ruleset(Phase("g", "government", owe_and_take, orders=("pay",)),
                   lasting=("decisions",))


def test_a_decision_is_answered_by_its_player_or_defaults_on_its_due_turn():
    rules = decision_rules()
    first = play(rules, [{"player": "Stark", "order": "pay", "amount": 1},
                         {"player": "Tully", "order": "pay", "amount": 1}])
    rows = first.after.tables["Decisions"].to_dict("records")
    assert [(r["decision"], r["owed by"], r["due on turn"], r["status"]) for r in rows] == \
        [("D1", "Stark", 2, "open"), ("D2", "Tully", 2, "open")]
    carried = {"Decisions": rows}
    second = resolve(rules, state(rules, [
        {"player": "Stark", "order": "answer", "decision": "d1", "answer": "republic"},
        {"player": "Arryn", "order": "answer", "decision": "D2", "answer": "Republic"},
        {"player": "Tully", "order": "answer", "decision": "D2", "answer": "Empire"},
    ], turn=2, tables=carried), seed=1)
    assert [r.status for r in second.results] == [Status.APPLIED, Status.REJECTED,
                                                  Status.REJECTED]
    assert "is Tully's to make" in second.results[1].reason
    assert "answer one of: Monarchy, Republic" in second.results[2].reason
    traces = [e.text for e in second.events if e.kind == "trace"]
    assert traces == ["Stark takes Republic", "Tully takes Monarchy"]
    assert any(e.kind == "decision defaulted" and e.player == "Tully" for e in second.events)
    statuses = second.after.tables["Decisions"]["status"].tolist()
    assert statuses == ["done", "defaulted"]


def owe_provinces(ctx) -> None:
    for decision in ctx.decisions.take("conquest"):
        ctx.emit(decision.owed_by, "trace", f"{decision.owed_by} takes "
                                            f"{' + '.join(decision.choices)}")
    for order in ctx.orders("pay"):
        ctx.decisions.owe(order.player, "conquest", "Which lands do you take?",
                          ["A", "B", "E", "nothing"], "B, E", several=True)
        ctx.resolve(order, Status.APPLIED, "owed")


def test_a_decision_may_take_several_of_its_options():
    rules = ruleset(Phase("g", "conquest", owe_provinces, orders=("pay",)),
                    lasting=("decisions",))
    first = play(rules, [{"player": "Stark", "order": "pay", "amount": 1},
                         {"player": "Tully", "order": "pay", "amount": 1},
                         {"player": "Arryn", "order": "pay", "amount": 1}])
    rows = first.after.tables["Decisions"].to_dict("records")
    assert [r["several"] for r in rows] == ["yes"] * 3
    assert any("Options (one or several, comma-separated): A, B, E, nothing" in e.text
               for e in first.events)
    second = resolve(rules, state(rules, [
        {"player": "Stark", "order": "answer", "decision": "D1", "answer": "e; a, E"},
        {"player": "Tully", "order": "answer", "decision": "D2", "answer": "A, Z"},
    ], turn=2, tables={"Decisions": rows}), seed=1)
    assert second.results[0].reason == "decision D1: E, A"
    assert second.results[1].status is Status.REJECTED
    assert "answer one or several (comma-separated) of: A, B, E, nothing" in \
        second.results[1].reason
    traces = [e.text for e in second.events if e.kind == "trace"]
    assert traces == ["Stark takes E + A", "Tully takes B + E", "Arryn takes B + E"]
    with pytest.raises(ValueError, match="is not one of"):
        from sheetmaster.kit.decisions import Decisions

        Decisions(1, []).owe("Stark", "conquest", "?", ["A"], "A, B", several=True)


def deal(ctx) -> None:
    if ctx.turn == 1:
        ctx.deck("Events", cards=["Flood", "Plague", "War", "Harvest", "Comet"])
    for order in ctx.orders("cut"):
        found = ctx.deck("Events").search("comet", order.player, "a seer's card")
        ctx.resolve(order, Status.APPLIED, f"found {found}")
    for order in ctx.orders("pay"):
        cards = ctx.deck("Events").draw(order.fields["amount"], order.player, "the draft")
        ctx.resolve(order, Status.APPLIED, f"drew {len(cards)}")
        ctx.emit(order.player, "trace", ",".join(cards), audience=PRIVATE)


def deck_rules():
    return ruleset(Phase("d", "deal", deal, orders=("pay", "cut")), lasting=("decks",))


def drawn(result) -> list[str]:
    return [e.text for e in result.events if e.kind == "trace"]


def test_a_decks_order_lasts_between_turns_and_is_not_in_the_sheet():
    rules = deck_rules()
    first = play(rules, [{"player": "Stark", "order": "pay", "amount": 2}], seed=7)
    row = first.after.tables["Decks"].to_dict("records")[0]
    assert (row["cards"], row["shuffles"], row["drawn"], row["left"]) == \
        ("Comet, Flood, Harvest, Plague, War", 1, 2, 3)
    carried = {"Decks": first.after.tables["Decks"].to_dict("records")}
    # The next turn's seed differs; the deck goes on where it was.
    second = resolve(rules, state(rules, [{"player": "Tully", "order": "pay", "amount": 3}],
                                  turn=2, tables=carried), seed=99)
    again = resolve(rules, state(rules, [{"player": "Tully", "order": "pay", "amount": 3}],
                                 turn=2, tables=carried), seed=12345)
    assert drawn(second) == drawn(again)
    assert sorted(drawn(first)[0].split(",") + drawn(second)[0].split(",")) == \
        ["Comet", "Flood", "Harvest", "Plague", "War"]
    sheet = "\n".join(str(v) for df in second.after.tables.values()
                      for v in df.astype(str).values.ravel())
    assert drawn(second)[0] not in sheet  # the order is nowhere in the sheet


def test_draws_are_logged_publicly_as_counts_and_privately_with_the_cards():
    rules = deck_rules()
    dice = ScriptedDice(named={"deck Events": ["War", "Comet", "Flood", "Harvest", "Plague"]})
    result = resolve(rules, state(rules, [{"player": "Stark", "order": "pay", "amount": 2}]),
                     dice=dice)
    assert drawn(result) == ["War,Comet"]
    public = [e.text for e in result.events if e.audience == PUBLIC]
    assert "drew 2 from Events (the draft)" in public
    assert not any("War" in text for text in public)
    private = [e for e in result.events if e.kind == "drew cards"]
    assert private[0].audience == PRIVATE and private[0].visible_to("Stark")
    assert not private[0].visible_to("Tully")
    assert all(e.audience == GM_ONLY for e in result.events if e.kind == "shuffle")


def test_searching_a_deck_takes_the_card_and_shuffles_the_rest():
    rules = deck_rules()
    dice = ScriptedDice(named={"deck Events": [["War", "Comet", "Flood", "Harvest", "Plague"],
                                               ["Plague", "War", "Flood", "Harvest"]]})
    result = resolve(rules, state(rules, [{"player": "Stark", "order": "cut", "unit": "x",
                                           "to": "A"},
                                          {"player": "Stark", "order": "pay", "amount": 1}]),
                     dice=dice)
    assert result.results[0].reason == "found Comet"
    assert drawn(result) == ["Plague"]
    row = result.after.tables["Decks"].to_dict("records")[0]
    assert (row["cards"], row["shuffles"], row["left"]) == ("Flood, Harvest, Plague, War", 2, 3)


def test_a_deck_the_gm_typed_with_no_shuffle_is_dealt_in_the_order_listed():
    """A GM carrying on a game dealt from a physical deck types its cards in order and leaves
    'shuffles' at 0: they are dealt first to last, whatever the dice, across turns, until
    the deck is next shuffled (a search here), when its order is the secret's again."""
    rules = deck_rules()
    typed = {"Decks": [{"deck": "Events", "cards": "War, Comet, Flood, Plague, Harvest"}]}
    first = resolve(rules, state(rules, [{"player": "Stark", "order": "pay", "amount": 2}],
                                 turn=2, tables=typed), seed=5)
    assert drawn(first) == ["War,Comet"]
    row = first.after.tables["Decks"].to_dict("records")[0]
    assert (row["cards"], row["shuffles"], row["drawn"], row["left"]) == \
        ("War, Comet, Flood, Plague, Harvest", 0, 2, 3)
    carried = {"Decks": first.after.tables["Decks"].to_dict("records")}
    for seed in (6, 7):
        second = resolve(rules, state(rules, [{"player": "Tully", "order": "pay", "amount": 2}],
                                      turn=3, tables=carried), seed=seed)
        assert drawn(second) == ["Flood,Plague"]
    searched = resolve(rules, state(rules, [{"player": "Stark", "order": "cut", "unit": "x",
                                             "to": "A"},
                                            {"player": "Stark", "order": "pay", "amount": 1}],
                                    turn=3, tables=carried), seed=8)
    assert searched.results[0].reason == "found None"  # Comet was dealt already
    assert drawn(searched) == ["Flood"]  # still the GM's order: nothing was shuffled
    dice = ScriptedDice(named={"deck Events": [["Plague", "Harvest", "Flood"]]})
    carried["Decks"][0]["cards"] = "War, Comet, Flood, Plague, Harvest"
    carried["Decks"][0]["drawn"] = 1  # War dealt: Comet, Flood, Plague, Harvest left
    searched = resolve(rules, state(rules, [{"player": "Stark", "order": "cut", "unit": "x",
                                             "to": "A"},
                                            {"player": "Stark", "order": "pay", "amount": 1}],
                                    turn=3, tables=carried), dice=dice)
    assert searched.results[0].reason == "found Comet" and drawn(searched) == ["Plague"]
    row = searched.after.tables["Decks"].to_dict("records")[0]
    assert (row["cards"], row["shuffles"], row["left"]) == ("Flood, Harvest, Plague", 1, 2)


def gm_decree(ctx) -> None:
    for order in ctx.orders("decree"):
        ctx.world.realms[order.player].coins += order.fields["amount"]
        ctx.resolve(order, Status.APPLIED, "decreed")


def test_gm_only_orders_come_from_the_gm_orders_tab_alone():
    rules = ruleset(Phase("g", "decrees", gm_decree, orders=("decree",)), gm_orders=True)
    game = state(rules, [{"player": "Stark", "order": "decree", "amount": 5}])
    game.tables["GM orders"] = game.tables["Orders"].copy()
    game.tables["GM orders"].loc[2, "player"] = "Tully"
    result = resolve(rules, game, seed=1)
    by_row = {r.row: r for r in result.results}
    assert by_row[2].status is Status.REJECTED and "only the GM may" in by_row[2].reason
    assert by_row[-2].status is Status.APPLIED
    realms = result.after.tables["Realms"].set_index("realm")
    assert (realms.at["Stark", "coins"], realms.at["Tully", "coins"]) == (5, 10)
    assert result.after.tables["GM orders"].at[2, "result"] == "applied"
    assert result.after.tables["Orders"].at[2, "result"] == "rejected"


def test_a_gm_only_kind_is_declared_on_the_order_kind():
    kind = OrderKind("hit", (Field("amount", count=True),), gm_only=True)
    assert kind.gm_only and not OrderKind("pay").gm_only


@pytest.mark.parametrize("uses", [("timers",), ("decisions",), ("decks",)])
def test_each_lasting_tab_is_added_to_the_game(uses):
    from sheetmaster.kit.tabs import all_tables

    rules = ruleset(Phase("a", "a", lambda ctx: None), lasting=uses)
    tabs = [t.tab for t in all_tables(rules)]
    assert {"timers": "Timers", "decisions": "Decisions", "decks": "Decks"}[uses[0]] in tabs


def test_a_timer_of_no_turns_waits_on_its_payments_and_says_no_due_turn():
    """An instalment (decades' colonization) is a process of 0 turns: due at once, completed
    by the rules when paid; its log line names no due turn."""
    from sheetmaster.kit.timers import Timers

    lines: list[str] = []
    timers = Timers(3, [], lambda owner, kind, text: lines.append(text))
    paying = timers.start("colonization", "Stark", "A", 0)
    waiting = timers.start("construction", "Stark", "Fort in B", 2)
    assert lines == ["colonization started: A (T1)",
                     "construction started: Fort in B, due on turn 5 (T2)"]
    assert timers.due() == [paying] and waiting not in timers.due()


def test_the_timers_about_a_province_are_those_find_gives_even_as_timers_start_and_end():
    """``about`` (issue 26.1) narrows ``find`` to a subject or a data key's value, in the
    same order, and sees the timers started and ended after it was first asked."""
    from sheetmaster.kit.timers import CANCELLED, Timers

    timers = Timers(3, [])

    def by_find(kind: str, where: str, status: str | None = "running") -> list:
        return [t for t in timers.find(kind=kind, status=status)
                if t.details.get("province") == where]

    fort = timers.start("construction", "Stark", "Fort in A", 2, data={"province": "A"})
    timers.start("construction", "Stark", "Port in B", 2, data={"province": "B"})
    timers.start("production", "Stark", "Infantry in A", 1, data={"province": "A"})
    timers.start("construction", "Stark", "somewhere", 1)
    assert timers.about("construction", "A", key="province") == by_find("construction", "A") \
        == [fort]
    mill = timers.start("construction", "Lannister", "Mill in A", 3, data={"province": "A"})
    timers.cancel(fort, "occupied")
    assert fort.status == CANCELLED
    assert timers.about("construction", "A", key="province") == by_find("construction", "A") \
        == [mill]
    assert timers.about("construction", "A", key="province", status=None) == \
        by_find("construction", "A", None) == [fort, mill]
    assert timers.about("construction", "C", key="province") == []
    assert timers.about("construction", "Fort in A", status=None) == [fort]  # by subject
    assert timers.about("construction", "somewhere") == [t for t in timers.find(
        kind="construction") if t.subject == "somewhere"]


def test_the_timers_among_several_kinds_come_once_each_in_the_order_find_gives():
    """``among`` merges ``about`` over kinds and keys: a timer matching twice comes once, and
    the order is the rows', as a scan of ``find`` would give them."""
    from sheetmaster.kit.timers import Timers

    timers = Timers(3, [])
    rail = timers.start("railroad", "Stark", "A - B", 2, data={"province": "B", "to": "A"})
    fort = timers.start("construction", "Stark", "Fort in A", 2, data={"province": "A"})
    timers.start("construction", "Stark", "Fort in C", 2, data={"province": "C"})
    both = timers.start("railroad", "Stark", "A - A", 2, data={"province": "A", "to": "A"})
    late = timers.start("production", "Stark", "Infantry in A", 1, data={"province": "A"})
    kinds = ("production", "construction", "railroad")
    scan = [t for t in timers.find() if t.kind in kinds and "A" in (
        t.details.get("province"), t.details.get("to"))]
    assert timers.among(kinds, "A", keys=("province", "to")) == scan == \
        [rail, fort, both, late]
    assert timers.among(("railroad",), "A - B") == [rail]  # by subject
    timers.start("railroad", "Lannister", "C - D", 2, data={"province": "C", "to": "D"})
    timers.cancel(both, "occupied")
    assert timers.owned("railroad", "Stark") == timers.find(kind="railroad", owner="Stark") \
        == [rail]
    assert timers.owned("railroad", "Stark", status=None) == [rail, both]


def test_new_decisions_count_on_from_the_highest_number_in_the_tab():
    """A decision's id is one more than the highest in the tab (read once a turn, then
    counted on: issue 26.1), past ids that are not numbered."""
    from sheetmaster.kit.decisions import Decision, Decisions

    old = [Decision(i, "k", "GM", "?", ("a", "b"), "a", 3, "", "done", "", False)
            for i in ("D7", "D2", "Dx")]
    decisions = Decisions(3, old)
    made = [decisions.owe("GM", "k", "?", ["a", "b"], "a") for _ in range(3)]
    assert [d.id for d in made] == ["D8", "D9", "D10"] and decisions.rows[-1] is made[-1]


def test_an_answer_finds_its_decision_by_id_in_any_case_even_one_owed_after_the_first():
    """Answers find their decision from an index of the ids (issue 26.1), kept as decisions
    are owed: the first row of an id, in any case, as a scan of the rows would."""
    from types import SimpleNamespace

    from sheetmaster.kit.decisions import ANSWERED, Decision, Decisions
    from sheetmaster.kit.model import Order

    told = []
    ctx = SimpleNamespace(resolve=lambda order, status, why: told.append((status, why)))
    old = [Decision(i, "k", "Arryn", "?", ("a", "b"), "a", 4, "", "open", "", False)
           for i in ("D1", "d1", "D2")]
    decisions = Decisions(3, old)
    decisions.answer(ctx, Order(2, 2, "Arryn", "answer", {"decision": "d1", "answer": "B"}))
    later = decisions.owe("Arryn", "k", "?", ["a", "b"], "a")
    decisions.answer(ctx, Order(3, 3, "Arryn", "answer", {"decision": later.id.lower(),
                                                          "answer": "a"}))
    decisions.answer(ctx, Order(4, 4, "Arryn", "answer", {"decision": "D9", "answer": "a"}))
    assert (old[0].status, old[0].answer, old[1].status) == (ANSWERED, "b", "open")
    assert (later.id, later.status, later.answer) == ("D3", ANSWERED, "a")
    assert told[2] == (Status.REJECTED, "there is no open decision 'D9'")


@pytest.mark.parametrize("uses", [("timers",), ("decisions",), ("decks",)])
def test_a_lasting_tab_missing_a_column_is_refused_naming_it(uses):
    """Was: an AssertionError from loading its rows, instead of the tab and column."""
    from sheetmaster.kit.schema import StateError
    from sheetmaster.kit.tabs import all_tables

    rules = ruleset(Phase("a", "a", lambda ctx: None), lasting=uses)
    table = next(t for t in all_tables(rules) if t.tab in ("Timers", "Decisions", "Decks"))
    game = state(rules)
    column = table.columns[0].name
    game.tables[table.tab] = game.tables[table.tab].drop(columns=[column])
    with pytest.raises(StateError, match=f"tab '{table.tab}', row 1, column '{column}'"):
        resolve(rules, game, seed=1)


def test_a_decks_hidden_order_follows_from_the_games_secret():
    """The order is keyed by the game's dice secret (never in the sheet): the same secret
    deals the same cards whatever the turn's dice seed, and another game's secret deals
    others."""
    rules = deck_rules()
    orders = [{"player": "Stark", "order": "pay", "amount": 5}]

    def dealt(secret: str, seed: int) -> list[str]:
        return drawn(resolve(rules, state(rules, orders), seed=seed, secret=secret))

    assert dealt("alpha's dice secret", 1) == dealt("alpha's dice secret", 2)
    orders_by_secret = {tuple(dealt(f"game {n}'s dice secret", 1)) for n in range(6)}
    assert len(orders_by_secret) > 1  # not one order for every game

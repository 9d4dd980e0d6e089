"""Visibility: an event is public, private to one player, or GM-only. The shared Log and the
public report hold public lines only; each player's own report holds what is theirs or for
their eyes alone and points to the public report for the rest; the GM's shows everything.
Clans' Ninjas are secret from the other clans."""

from __future__ import annotations

from operator import attrgetter

from toy import play, ruleset

from sheetmaster.app.report import GM, player_report, player_reports
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.dice import ScriptedDice
from sheetmaster.kit.model import GM_ONLY, PRIVATE, PRIVATE_REASON, Status
from sheetmaster.kit.orders import Field, OrderKind
from sheetmaster.kit.ruleset import Lines, Phase
from sheetmaster.rules import get

SPY = OrderKind("spy", (Field("amount", count=True),), secret=True)


def spy(ctx) -> None:
    for order in ctx.orders("spy"):
        ctx.emit(order.player, "spy", f"{order.player}'s spy learns Tully has 5 coins",
                 audience=PRIVATE)
        ctx.emit("", "gm note", "the spy was nearly caught", audience=GM_ONLY)
        ctx.emit("Tully", "spy", "Tully's guards saw a shadow", audience=PRIVATE)
        # a line about Tully for the spy's master alone
        ctx.emit("Tully", "spy", "the spy copied Tully's ledger", audience=order.player)
        ctx.emit("", "news", "strange lights over the capital")
        ctx.resolve(order, Status.APPLIED, "the spy learned Tully has 5 coins")
    for order in ctx.orders("pay"):
        ctx.emit(order.player, "toll", f"{order.player} paid the toll")
        ctx.resolve(order, Status.APPLIED, "paid")


def spy_result():
    rules = ruleset(Phase("s", "spies", spy, orders=("spy", "pay")), kinds=(SPY,))
    return rules, play(rules, [{"player": "Stark", "order": "spy", "amount": 1},
                               {"player": "Tully", "order": "pay", "amount": 1}])


def test_the_log_tab_holds_public_lines_only_numbered_without_gaps():
    _, result = spy_result()
    log = result.after.tables["Log"]
    assert "strange lights over the capital" in log["details"].tolist()
    assert not any("spy" in text or "shadow" in text for text in log["details"].tolist())
    assert log["#"].tolist() == list(range(1, len(log) + 1))
    assert len(result.events) == len(log) + 4  # the private and GM lines are kept for reports


def test_lines_gathered_and_logged_at_once_read_as_lines_logged_one_by_one():
    """A phase that runs over a great many orders gathers its log lines (``Lines``) and
    logs them at once (``ctx.emit_all``): numbered on from the lines before, in order, each
    with its phase, player, kind, text and audience, as ``ctx.emit`` would have logged them."""
    def one_by_one(ctx) -> None:
        ctx.emit("", "news", "before")
        for order in ctx.orders("pay"):
            ctx.emit(order.player, "toll", f"{order.player} paid the toll")
            ctx.emit("", "news", f"the bridge was crossed by {order.player}", audience=PRIVATE)
            ctx.resolve(order, Status.APPLIED, "paid")
        ctx.emit("", "news", "after")

    def at_once(ctx) -> None:
        ctx.emit("", "news", "before")
        public, private = Lines(), Lines()
        for order in ctx.orders("pay"):
            public.add(order.player, "toll", f"{order.player} paid the toll")
            private.add("", "news", f"the bridge was crossed by {order.player}")
            ctx.resolve(order, Status.APPLIED, "paid")
        ctx.emit_all(public)
        ctx.emit_all(private, audience=PRIVATE)
        ctx.emit("", "news", "after")

    orders = [{"player": "Stark", "order": "pay", "amount": 1},
              {"player": "Tully", "order": "pay", "amount": 2}]
    one = play(ruleset(Phase("s", "tolls", one_by_one, orders=("pay",))), orders).events
    many = play(ruleset(Phase("s", "tolls", at_once, orders=("pay",))), orders).events
    key = attrgetter("phase", "player", "kind", "text", "sides", "value", "audience")
    assert [e.seq for e in many] == list(range(1, len(many) + 1))  # after the engine's own
    assert sorted(map(key, many)) == sorted(map(key, one))  # the same lines...
    assert [e.text for e in many if e.phase == "s"] == [  # ...each batch in its order
        "before", "Stark paid the toll", "Tully paid the toll",
        "the bridge was crossed by Stark", "the bridge was crossed by Tully", "after"]
    assert {e.audience for e in many if "bridge" in e.text} == {PRIVATE}


def test_a_secret_orders_status_and_reason_stay_out_of_the_shared_sheet():
    _, result = spy_result()
    assert result.results[0].status is Status.APPLIED
    assert result.results[0].reason == "the spy learned Tully has 5 coins"
    orders = result.after.tables["Orders"]
    assert (orders.at[2, "result"], orders.at[2, "reason"]) == ("private", PRIVATE_REASON)


def test_each_report_shows_what_its_reader_may_see():
    rules, result = spy_result()
    public = player_report(rules, result)
    stark, tully, gm = (player_report(rules, result, who) for who in ("Stark", "Tully", GM))
    for text in (public, tully):
        assert "learns Tully has 5 coins" not in text and "nearly caught" not in text
        assert "| spy |" not in text  # another player's secret order is not listed
        assert "copied Tully's ledger" not in text  # a line about Tully, for Stark alone
    assert "| 2 | spy | applied | the spy learned Tully has 5 coins |" in stark
    for text in (public, stark, tully, gm):  # a line for everyone, in everyone's report
        assert "## The whole game" in text and "- strange lights over the capital" in text
    assert "the spy was nearly caught" not in gm.split("## The whole game")[1].split("##")[0]
    assert "Stark's spy learns Tully has 5 coins" in stark and "shadow" not in stark
    assert "Tully's guards saw a shadow" in tully and "- Tully paid the toll" in tully
    assert all(s in gm for s in ("learns Tully", "shadow", "nearly caught", "copied Tully's"))
    assert set(player_reports(rules, result)) == {"Stark", "Tully", "Arryn", "Tyrell", GM}


def sections(report: str) -> dict[str, str]:
    """A report's sections by heading (a player's text can never start a line)."""
    return {part.split("\n", 1)[0]: part for part in report.split("\n## ")[1:]}


def test_a_players_own_report_holds_what_is_theirs_and_points_to_the_public_one():
    rules, result = spy_result()
    stark, tully = (player_report(rules, result, who) for who in ("Stark", "Tully"))
    # Stark's own section first and whole, then Tully's holding only the line for Stark
    assert list(sections(stark)) == ["The whole game", "Stark", "Tully"]
    assert sections(stark)["Stark"].startswith(
        "Stark\n\n| row | order | result | reason |\n|---|---|---|---|\n"
        "| 2 | spy | applied | the spy learned Tully has 5 coins |\n\n**s. spies**\n"
        "- Stark's spy learns Tully has 5 coins\n")
    assert sections(stark)["Tully"] == (
        "Tully\n\n**s. spies**\n- the spy copied Tully's ledger\n\n"
        "The other players' orders and public lines are in the public turn report.\n\n"
        "_2 orders, 0 rejected, 0 dice rolled._\n")
    assert "toll" not in stark and "| pay |" not in stark  # Tully's public part is elsewhere
    # nothing about another player is for Tully's eyes alone: Tully's section, no other
    assert list(sections(tully)) == ["The whole game", "Tully"]
    assert sections(tully)["Tully"] == (
        "Tully\n\n| row | order | result | reason |\n|---|---|---|---|\n"
        "| 3 | pay | applied | paid |\n\n**s. spies**\n- Tully's guards saw a shadow\n"
        "- Tully paid the toll\n\n"
        "The other players' orders and public lines are in the public turn report.\n\n"
        "_1 order, 0 rejected, 0 dice rolled._\n")
    # the public report and the GM's do not point elsewhere: they hold every section
    public, gm = player_report(rules, result), player_report(rules, result, GM)
    assert "public turn report" not in public + gm
    # one reader's report made alone is the one player_reports makes with the others
    reports = player_reports(rules, result)
    assert all(reports[who] == player_report(rules, result, who) for who in reports)


PUBLIC_SPY_REPORT = """\
# Turn 1 results

Rules: toy. Dice seed: 1.

## The whole game

**s. spies**
- strange lights over the capital

## Stark

No orders this turn.

## Tully

| row | order | result | reason |
|---|---|---|---|
| 3 | pay | applied | paid |

**s. spies**
- Tully paid the toll

## Arryn

No orders this turn.

## Tyrell

No orders this turn.

_1 order, 0 rejected, 0 dice rolled._
"""

GM_SPY_REPORT = """\
# Turn 1 results (GM's full report)

Rules: toy. Dice seed: 1.

## The whole game

**s. spies**
- strange lights over the capital

## Stark

| row | order | result | reason |
|---|---|---|---|
| 2 | spy | applied | the spy learned Tully has 5 coins |

**s. spies**
- Stark's spy learns Tully has 5 coins

## Tully

| row | order | result | reason |
|---|---|---|---|
| 3 | pay | applied | paid |

**s. spies**
- Tully's guards saw a shadow
- the spy copied Tully's ledger
- Tully paid the toll

## Arryn

No orders this turn.

## Tyrell

No orders this turn.

## GM-only lines

- [s] game: the spy was nearly caught

_2 orders, 0 rejected, 0 dice rolled._
"""


def test_the_public_report_and_the_gms_keep_every_section():
    """Byte for byte what they were before players' own reports were cut down."""
    rules, result = spy_result()
    assert player_report(rules, result) == PUBLIC_SPY_REPORT
    assert player_report(rules, result, GM) == GM_SPY_REPORT
    assert player_reports(rules, result)[GM] == GM_SPY_REPORT


def test_a_players_own_report_does_not_grow_with_the_other_players():
    """Each own report holds the reader's part alone: with 40 realms as with 4, and well
    under a tenth of the public report."""
    def toll(ctx) -> None:
        for order in ctx.orders("pay"):
            ctx.emit(order.player, "toll", f"{order.player} paid a toll")
            ctx.resolve(order, Status.APPLIED, "paid")

    rules = ruleset(Phase("t", "tolls", toll, orders=("pay",)))

    def reports(count: int) -> tuple[str, dict[str, str]]:
        realms = [{"realm": f"Realm {i:02d}", "coins": 5, "seat": i} for i in range(count)]
        orders = [{"player": r["realm"], "order": "pay", "amount": 1} for r in realms]
        result = play(rules, orders, tables={"Realms": realms})
        return player_report(rules, result), player_reports(rules, result)

    public4, own4 = reports(4)
    public40, own40 = reports(40)
    assert len(own40) == 41 and len(public40) > 8 * len(public4)
    for name, text in own40.items():
        if name != GM:
            assert len(text) < len(public40) / 10
            assert len(text) <= len(own4["Realm 00"]) + 2  # '_40 orders' for '_4 orders'
            assert f"- {name} paid a toll" in text and text.count("## ") == 1
    assert len(own40[GM]) >= len(public40)


def test_each_reader_counts_the_dice_and_orders_of_their_own_view():
    """The totals line counts what the reader's view holds: public orders and dice, the
    reader's own secret orders, and the rolls only the reader may see (about anyone)."""
    def rolls(ctx) -> None:
        ctx.emit("", "dice", "the dice of the GM alone", audience=GM_ONLY)
        ctx.emit("Tully", "dice", "the dice Stark may see", audience="Stark")
        ctx.emit("", "dice", "the dice everyone sees")
        ctx.emit("Stark", "die", "d6 for Stark's spy: 4", audience=PRIVATE)
        ctx.emit("Tully", "die", "d6 for the ledger, for Stark: 2", audience="Stark")
        ctx.emit("Tully", "die", "d6 for Tully's guards: 5", audience=PRIVATE)
        ctx.emit("", "die", "d6 for the weather: 1")
        spy(ctx)

    rules = ruleset(Phase("s", "spies", rolls, orders=("spy", "pay")), kinds=(SPY,))
    result = play(rules, [{"player": "Stark", "order": "spy", "amount": 1},
                          {"player": "Tully", "order": "pay", "amount": 1},
                          {"player": "Arryn", "order": "spy", "amount": 1}])
    reports = player_reports(rules, result)
    reports[None] = player_report(rules, result)
    dice = {who: text.split("Dice: ")[1].split(".")[0] for who, text in reports.items()}
    assert dice == {None: "the dice everyone sees", "Tully": "the dice everyone sees",
                    "Arryn": "the dice everyone sees", "Tyrell": "the dice everyone sees",
                    "Stark": "the dice Stark may see", GM: "the dice of the GM alone"}
    totals = {who: text.rstrip().rsplit("\n", 1)[1] for who, text in reports.items()}
    assert totals == {None: "_1 order, 0 rejected, 1 die rolled._",
                      "Stark": "_2 orders, 0 rejected, 3 dice rolled._",
                      "Tully": "_1 order, 0 rejected, 2 dice rolled._",
                      "Arryn": "_2 orders, 0 rejected, 1 die rolled._",
                      "Tyrell": "_1 order, 0 rejected, 1 die rolled._",
                      GM: "_3 orders, 0 rejected, 4 dice rolled._"}
    assert "- d6 for the ledger, for Stark: 2" in sections(reports["Stark"])["Tully"]


def clans_ninja_turn():
    clans = get("clans")
    rows = {
        "Clans": [{"clan": c, "capital": f"{c[0]}1", "religion": "Spirits", "coins": 1000,
                   "started on turn": 1} for c in ("Amana", "Haspen", "Kuroda")],
        "Provinces": [{"province": f"{c[0]}1", "owner": c} for c in ("Amana", "Haspen",
                                                                    "Kuroda")],
        "Advisors": [{"clan": "Haspen", "skill": "Scholar", "since turn": 1}],
    }
    orders = [{"player": "Amana", "order": "assassinate advisor", "clan": "Haspen",
               "skill": "Scholar"}]
    state = build_state(clans, rows, orders, turn=2,
                        settings={"travelling advisor chance %": 0})
    return clans, resolve(clans, state, dice=ScriptedDice([6]))


def test_a_clans_ninja_is_secret_from_the_other_clans():
    """clans.txt: Ninja orders go to the GM in a private message; the target learns what
    its Ninja-struck court lost, and the other clans learn nothing."""
    clans, result = clans_ninja_turn()
    assert result.results[0].status is Status.APPLIED
    assert "Scholar was killed" in result.results[0].reason
    log = "\n".join(result.after.tables["Log"]["details"].astype(str))
    assert "Ninja" not in log and "assassinat" not in log
    assert result.after.tables["Orders"].at[2, "reason"] == PRIVATE_REASON
    amana, haspen, kuroda = (player_report(clans, result, c) for c in ("Amana", "Haspen",
                                                                       "Kuroda"))
    assert "the Ninja killed Haspen's Scholar" in amana
    assert "your Scholar was assassinated" in haspen and "Ninja killed" not in haspen
    assert "Ninja" not in kuroda and "assassinat" not in kuroda
    assert "Ninja" not in player_report(clans, result)


def test_report_dir_writes_each_clans_own_report_and_the_gms(tmp_path, capsys):
    from sheetmaster.app.cli import main

    game, reports = tmp_path / "clans.xlsx", tmp_path / "reports"
    assert main(["new", "clans", str(game), "--example"]) == 0
    assert main(["resolve", str(game), "--force", "--report-dir", str(reports)]) == 0
    files = {p.name: p.read_text(encoding="utf-8") for p in reports.iterdir()}
    assert set(files) == {"Amana.md", "Kuroda.md", "Mori.md", "Takeda.md", "gm.md"}
    # Kuroda sent a Ninja at Amana's Scholar; Takeda one to sabotage Kuroda's Library.
    assert "Ninja against Amana" in files["Kuroda.md"]
    assert "Ninja against Amana" not in files["Mori.md"]
    assert "Ninja against" not in files["Amana.md"]
    assert "Ninja against Amana" in files["gm.md"] and "Ninja against Kuroda" in files["gm.md"]
    printed = capsys.readouterr().out
    assert "Ninja against" not in printed and "assassinate" not in printed


def test_a_resolve_groups_the_turn_once_for_all_its_reports(tmp_path, monkeypatch):
    """The public report and every player's own come from one grouping of the turn."""
    from sheetmaster.app import report
    from sheetmaster.app.cli import main

    made = []
    grouped = report.TurnGroups.__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        grouped(self, *args, **kwargs)

    game = tmp_path / "clans.xlsx"
    assert main(["new", "clans", str(game), "--example"]) == 0
    monkeypatch.setattr(report.TurnGroups, "__init__", counting)
    assert main(["resolve", str(game), "--force", "--report-dir", str(tmp_path / "r")]) == 0
    assert len(made) == 1


def test_a_dry_run_before_the_deadline_uses_practice_dice(tmp_path, capsys):
    import json

    from test_cli import set_game

    from sheetmaster.app.cli import main

    game = tmp_path / "claims.xlsx"
    assert main(["new", "claims", str(game), "--example"]) == 0
    set_game(game, deadline="2999-01-01 00:00")
    capsys.readouterr()
    assert main(["resolve", str(game), "--dry-run"]) == 0
    assert "practice dice" in capsys.readouterr().out
    assert main(["resolve", str(game), "--dry-run", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["practice_dice"] is True and document["seed"] == 0
    set_game(game, deadline="2000-01-01 00:00")
    assert main(["resolve", str(game), "--dry-run", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["practice_dice"] is False and document["seed"] != 0


def secret_cards_rules():
    """Each realm holds a secret card (kept in the world); 'pay' swaps Stark's for 'Crown'.
    The world's notes() tell each realm its own card."""
    import dataclasses

    from toy import ToyWorld
    from toy import build_world as toy_world

    class CardWorld(ToyWorld):
        cards = {"Stark": "Wolfsbane", "Tully": "Trout"}

        def notes(self):
            return {realm: [f"your card: {card}"] for realm, card in self.cards.items()}

    def build(loaded, problems):
        world = toy_world(loaded, problems)
        world.__class__ = CardWorld
        world.cards = dict(CardWorld.cards)
        return world

    def swap(ctx) -> None:
        for order in ctx.orders("pay"):
            ctx.world.cards[order.player] = "Crown"
            ctx.resolve(order, Status.APPLIED, "swapped")

    rules = ruleset(Phase("s", "swap", swap, orders=("pay",)))
    return dataclasses.replace(rules, build_world=build)


def test_notes_tell_each_player_alone_what_they_hold():
    from sheetmaster.engine.checking import check

    rules = secret_cards_rules()
    orders = [{"player": "Stark", "order": "pay", "amount": 1}]
    result = play(rules, orders)
    assert result.notes == {"Stark": ["your card: Crown"], "Tully": ["your card: Trout"]}
    stark, tully, public, gm = (player_report(rules, result, who)
                                for who in ("Stark", "Tully", None, GM))
    assert "your card: Crown" in stark and "Trout" not in stark
    assert "your card: Trout" in tully and "Crown" not in tully
    assert "your card" not in public
    assert "Crown" in gm and "Trout" in gm
    # a check shows the cards as they stand before the turn: nothing it would draw
    checked = check(rules, build_state(rules, {"Realms": [{"realm": "Stark"},
                                                           {"realm": "Tully"}]}, orders))
    assert checked.notes["Stark"] == ["your card: Wolfsbane"]
    report = player_reports(rules, checked, checked=True)["Stark"]
    assert report.startswith("# Turn 1: orders as they stand (a check) for Stark")
    assert "your card: Wolfsbane" in report and "Trout" not in report
    # a check has no public report: the other players' orders stand in the Orders tab
    assert "## Tully" not in report
    assert "The other players' orders, as they stand, are in the sheet's Orders tab." in report

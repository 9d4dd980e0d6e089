"""The engine's calendar: seasons and years, decades, stages of rounds in eras, a setup turn,
and phases that run only on some dates."""

from __future__ import annotations

import pytest
from toy import play, recorder, ruleset, traces

from sheetmaster.kit.calendar import Calendar, in_seasons, in_stages, on_setup
from sheetmaster.kit.model import Status
from sheetmaster.kit.ruleset import Phase
from sheetmaster.kit.schema import StateError

SEASONS = ("Spring", "Summer", "Autumn", "Winter")


def game_tab(result) -> dict:
    game = result.after.tables["Game"]
    return dict(zip(game["setting"], game["value"]))


def seasons_ruleset():
    return ruleset(
        Phase("s", "spring only", recorder("spring only"), when=in_seasons("Spring")),
        Phase("a", "always", lambda ctx: ctx.emit("", "trace", f"{ctx.date.season} "
                                                                 f"{ctx.date.year}")),
        calendar=Calendar(seasons=SEASONS, first_year="first year", first_year_default=1861,
                          first_season="first season", label_setting="season",
                          label=lambda d: f"{d.season} {d.year}"))


@pytest.mark.parametrize("turn, first, season, year, next_label", [
    (1, "Spring", "Spring", 1861, "Summer 1861"),
    (4, "Spring", "Winter", 1861, "Spring 1862"),
    (5, "Spring", "Spring", 1862, "Summer 1862"),
    (1, "Autumn", "Autumn", 1861, "Winter 1861"),
    (2, "Autumn", "Winter", 1861, "Spring 1862"),
    (3, "Autumn", "Spring", 1862, "Summer 1862"),
])
def test_each_turn_is_the_next_season_and_the_year_turns_in_spring(turn, first, season, year,
                                                                    next_label):
    result = play(seasons_ruleset(), turn=turn, **{"first season": first})
    assert ("", f"{season} {year}") in traces(result)
    assert (("", "spring only") in traces(result)) == (season == "Spring")
    assert game_tab(result)["season"] == next_label


def test_a_blank_first_year_without_default_stops_before_anything_is_written():
    rules = ruleset(Phase("a", "always", recorder("always")),
                    calendar=Calendar(years_per_turn=10, first_year="start year",
                                      label_setting="years",
                                      label=lambda d: f"{d.year}-{d.year + 9}"))
    with pytest.raises(StateError, match="setting 'start year' is blank, and this turn needs"):
        play(rules)
    result = play(rules, turn=3, **{"start year": 1700})
    assert game_tab(result)["years"] == "1730-1739"


def staged_ruleset(skip_war: bool = True):
    def turns(ctx) -> None:
        ctx.emit("", "trace", f"turns of round {ctx.date.round}, era {ctx.date.era}")
        if skip_war:
            ctx.next_stage = "draft"  # nobody declared war: straight to the next round

    return ruleset(
        Phase("d", "draft", recorder("draft"), when=in_stages("draft")),
        Phase("t", "turns", turns, when=in_stages("turns")),
        Phase("w", "war", recorder("war"), when=in_stages("war")),
        calendar=Calendar(stages=("draft", "turns", "war"), rounds_per_era=8, eras=3))


def test_stages_run_one_per_turn_and_a_new_round_starts_after_the_last():
    rules = staged_ruleset(skip_war=False)
    result = play(rules, round=1, stage="draft")
    assert traces(result) == [("", "draft")]
    assert (game_tab(result)["round"], game_tab(result)["stage"]) == (1, "turns")
    result = play(rules, round=8, stage="war")
    assert traces(result) == [("", "war")]
    assert (game_tab(result)["round"], game_tab(result)["stage"]) == (9, "draft")


def test_a_phase_may_skip_a_stage_and_the_game_ends_after_the_last_round():
    rules = staged_ruleset()
    result = play(rules, round=9, stage="turns")
    assert traces(result) == [("", "turns of round 9, era 2")]
    assert (game_tab(result)["round"], game_tab(result)["stage"]) == (10, "draft")
    result = play(rules, round=24, stage="turns")
    assert game_tab(result)["stage"] == "over"
    with pytest.raises(StateError, match="the game is over"):
        play(rules, round=25, stage="over")


def test_turn_zero_is_a_setup_turn_with_its_own_order_kinds():
    def deploy(ctx) -> None:
        for order in ctx.orders("deploy"):
            ctx.resolve(order, Status.APPLIED, f"deployed in {order.fields['land']}")

    rules = ruleset(Phase("0", "deploy", deploy, orders=("deploy",), when=on_setup),
                    Phase("p", "pay", recorder("pay", ("pay",)), orders=("pay",)),
                    calendar=Calendar(setup_turn=True))
    orders = [{"player": "Stark", "order": "deploy", "land": "A"},
              {"player": "Stark", "order": "pay", "amount": 1}]
    setup = play(rules, orders)
    assert setup.turn == 0
    assert [r.status for r in setup.results] == [Status.APPLIED, Status.REJECTED]
    assert "setup turn (turn 0): only deploy orders" in setup.results[1].reason
    assert traces(setup) == []
    later = play(rules, orders, turn=1)
    assert "only given on the setup turn" in later.results[0].reason
    bare = ruleset(Phase("1", "pay", lambda ctx: None, orders=("pay",)),
                   calendar=Calendar(setup_turn=True))
    refused = play(bare, [{"player": "Stark", "order": "pay", "amount": 1}])
    assert refused.results[0].reason == "this is the setup turn (turn 0): the rules take no " \
                                        "orders on it"
    assert traces(later) == [("", "pay 3")]


def test_durations_in_seasons_and_years_are_whole_turns():
    assert Calendar(seasons=SEASONS).turns(seasons=3, years=1) == 7
    assert Calendar(years_per_turn=10).turns(years=25) == 3
    assert Calendar().turns(years=2) == 2


def test_a_setup_turn_leads_into_the_first_stage_of_the_first_round():
    rules = ruleset(Phase("0", "setup", recorder("setup"), when=on_setup),
                    Phase("d", "draft", recorder("draft"), when=in_stages("draft")),
                    calendar=Calendar(setup_turn=True, stages=("draft", "turns", "war"),
                                      rounds_per_era=8, eras=3))
    setup = play(rules)
    assert setup.turn == 0 and traces(setup) == [("", "setup")]
    assert (game_tab(setup)["turn"], game_tab(setup)["round"], game_tab(setup)["stage"]) == \
        (1, 1, "draft")
    first = play(rules, turn=1, round=1, stage="draft")
    assert traces(first) == [("", "draft")]


def test_an_order_whose_phase_does_not_run_now_says_so():
    """1800's picks are taken in the draft stage: posted in the turns stage, the row says so
    (and does not blame the rules for ignoring it)."""
    rules = ruleset(Phase("d", "draft", recorder("draft", ("pay",)), orders=("pay",),
                          when=in_stages("draft")),
                    Phase("t", "turns", recorder("turns"), when=in_stages("turns")),
                    calendar=Calendar(stages=("draft", "turns"), rounds_per_era=8, eras=3))
    result = play(rules, [{"player": "Stark", "order": "pay", "amount": 1}], round=3,
                  stage="turns")
    assert result.results[0].status is Status.REJECTED
    assert result.results[0].reason == ("'pay' orders are not taken now: this is round 3's "
                                        "turns stage (the Game tab's 'stage')")
    in_its_stage = play(rules, [{"player": "Stark", "order": "pay", "amount": 1}], round=3,
                        stage="draft")
    assert in_its_stage.results[0].reason == "no phase of the rules used this order"

"""A stage nobody acts in is resolved in the same run (the same turn) as the stage before it
(``Ruleset.nobody_acts``): a round takes at most as many runs as it has stages that players act
in; the chained stage's dice come from the turn's committed seed, are logged after its own
stage line and verify; a chained stage that needs a setting the game lacks is left whole to
the next turn, the Log saying why, nothing of it written."""

from __future__ import annotations

import pytest
from toy import play, ruleset, state, traces

from sheetmaster.app import verify
from sheetmaster.engine.turn import STAGE_EVENT, STOPPED_EVENT, resolve
from sheetmaster.kit.calendar import Calendar, in_stages
from sheetmaster.kit.decisions import DECISIONS_TAB
from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Phase
from sheetmaster.kit.schema import Kind, StateError
from sheetmaster.kit.settings import Setting
from sheetmaster.kit.tabs import game_settings

SECRET = "the chaining tests' dice secret"
STAGES = ("draft", "turns", "war")
WAR_CHEST = Setting("war chest", "coins each realm pays for a war", Kind.WHOLE)


def trace(name: str):
    def run(ctx) -> None:
        ctx.emit("", "trace", f"{name} of round {ctx.date.round}")
    return run


def war(ctx) -> None:
    """The war stage: a realm pays before the war chest is read, then a die is rolled."""
    ctx.world.realms["Stark"].coins -= 1
    ctx.emit("", "trace", f"war of round {ctx.date.round}")
    if ctx.date.round >= 2:  # from round 2 a war needs the GM's war chest
        ctx.setting(WAR_CHEST.name)
    ctx.dice.roll(6, "Stark", "the war's die")


def staged(nobody_acts=None, decisions: bool = False):
    """Draft, turns and war; nobody acts in the war (unless ``nobody_acts`` says otherwise)."""
    def turns(ctx) -> None:
        ctx.emit("", "trace", f"turns of round {ctx.date.round}")
        if decisions:
            ctx.decisions.owe("Stark", "peace", "make peace?", ("yes", "no"), "no")

    return ruleset(
        Phase("d", "draft", trace("draft"), when=in_stages("draft")),
        Phase("t", "turns", turns, when=in_stages("turns")),
        Phase("w", "war", war, settings=(WAR_CHEST.name,), when=in_stages("war")),
        calendar=Calendar(stages=STAGES, rounds_per_era=8, eras=3),
        settings=(WAR_CHEST,),
        nobody_acts=nobody_acts or (lambda world, date: "nobody fights"
                                    if date.stage == "war" else ""),
        lasting=("decisions",) if decisions else ())


def after(result) -> GameState:
    """The game as the next run reads it."""
    return GameState(result.after.tables, dict(result.after.meta))


def stage_lines(result) -> list[str]:
    return [e.text for e in result.events if e.kind == STAGE_EVENT]


def test_a_stage_nobody_acts_in_is_resolved_in_the_same_turn_after_its_own_line():
    result = play(staged(), turn=2, round=1, stage="turns")
    assert traces(result) == [("", "turns of round 1"), ("", "war of round 1")]
    assert stage_lines(result) == ["round 1, the turns stage", "round 1, the war stage (in the "
                                   "same turn: nobody acts in it; nobody fights)"]
    kinds = [e.kind for e in result.events]
    assert kinds.index(STAGE_EVENT) < kinds.index("trace")  # each stage after its own line
    game = game_settings(result.after)
    assert (game["turn"], game["round"], game["stage"]) == (3, 2, "draft")
    die = [e for e in result.events if e.sides == 6]
    assert len(die) == 1 and result.events.index(die[0]) > kinds.index(STAGE_EVENT, 3)


def test_a_round_takes_as_many_runs_as_the_stages_players_act_in():
    rules = staged()
    game = state(rules, turn=1, round=1, stage="draft", **{"war chest": 3})
    runs, stages = 0, []
    while game_settings(game)["round"] <= 4:
        result = resolve(rules, game, seed=runs)
        stages += stage_lines(result)
        game, runs = after(result), runs + 1
    assert runs == 8 and len(stages) == 12  # four rounds: two runs each, three stages each
    assert sum("nobody acts in it" in s for s in stages) == 4


def test_a_stage_players_act_in_is_a_turn_of_its_own():
    every = staged(nobody_acts=lambda world, date: "")
    result = play(every, turn=2, round=1, stage="turns")
    assert traces(result) == [("", "turns of round 1")]
    assert game_settings(result.after)["stage"] == "war"


def test_an_open_decision_keeps_the_next_stage_for_its_answer():
    """Someone owes an answer: they may post it, so the stage waits for the next run."""
    rules = staged(decisions=True)
    result = play(rules, turn=2, round=1, stage="turns",
                  tables={DECISIONS_TAB: []})
    assert traces(result) == [("", "turns of round 1")]
    assert game_settings(result.after)["stage"] == "war"


def test_a_chained_stage_short_of_a_setting_is_left_whole_to_the_next_turn():
    rules = staged()
    before = state(rules, turn=5, round=2, stage="turns")  # no war chest
    result = resolve(rules, before, seed=7)
    assert traces(result) == [("", "turns of round 2")]  # nothing of the war
    assert not any(e.sides for e in result.events)  # its die not rolled
    stopped = [e.text for e in result.events if e.kind == STOPPED_EVENT]
    assert len(stopped) == 1 and stopped[0].startswith(
        "round 2, the war stage: nobody acts in it (nobody fights)")
    assert "'war chest'" in stopped[0] and "It is the next turn" in stopped[0]
    game = game_settings(result.after)
    assert (game["turn"], game["round"], game["stage"]) == (6, 2, "war")
    realms = result.after.tables["Realms"]
    assert realms.set_index("realm").at["Stark", "coins"] == 5  # the war's payment undone
    # the next run resolves the war as a turn of its own, and stops as any turn would
    with pytest.raises(StateError, match="war chest"):
        resolve(rules, after(result), seed=8)


def test_a_stop_in_a_chained_stage_is_the_same_when_the_turn_is_resolved_again():
    rules = staged()
    before = state(rules, turn=5, round=2, stage="turns")
    once, again = resolve(rules, before, seed=7), resolve(rules, before, seed=7)
    assert [e.text for e in once.events] == [e.text for e in again.events]


def test_a_chained_stages_dice_come_from_the_committed_seed_and_verify(monkeypatch):
    rules = staged()
    monkeypatch.setattr(verify, "ruleset_of", lambda state: rules)
    before = state(rules, turn=3, round=1, stage="turns")
    result = resolve(rules, before, secret=SECRET)
    assert [e.kind for e in result.events][:3] == ["turn", "dice", STAGE_EVENT]
    assert stage_lines(result)[1].endswith("nobody fights)")
    assert [e.text for e in result.events if e.sides] == \
        [f"d6 for the war's die: {result.events[-1].value}"]
    checked = verify.verify_turn(after(result), turn=3, before=before,
                                 before_from="the test", secret=SECRET)
    assert not checked.failed, "\n".join(checked.lines())
    passed = [text for ok, text in checked.checks if ok]
    assert any("all 1 draws of the turn in the Log follow from seed" in t for t in passed)
    assert any("gives the same Log" in t for t in passed)
    assert "and the same sheet" in passed

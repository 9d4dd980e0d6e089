"""The guess-and-check Adjudicator alone, on small made-up decision graphs."""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from collections.abc import Callable

import pytest

from sheetmaster.kit.adjudication import Adjudicator, Cycle, default_backup

Rule = Callable[[Adjudicator[str]], bool]


def deciding(rules: dict[str, Rule], calls: Counter | None = None):
    """A decide function from one rule per key; counts its calls in ``calls``."""

    def decide(key: str, adj: Adjudicator[str]) -> bool:
        if calls is not None:
            calls[key] += 1
        return rules[key](adj)

    return decide


def test_independent_decisions_are_decided_once_each_in_the_order_asked():
    """A decision that asks for no other is decided once, and kept."""
    calls: Counter = Counter()
    adj = Adjudicator(deciding({"a": lambda adj: True, "b": lambda adj: False,
                                "c": lambda adj: True}, calls))
    assert adj.run(["c", "a", "b"]) == {"c": True, "a": True, "b": False}
    assert list(adj.run(["c", "a", "b"])) == ["c", "a", "b"]
    assert calls == Counter(a=1, b=1, c=1)
    assert adj.cycles == []


def test_a_chain_is_resolved_from_its_end():
    """A decision that depends on another takes that one's final answer: a needs b to fail,
    b needs c to succeed, c holds."""
    rules = {"a": lambda adj: not adj.resolve("b"), "b": lambda adj: adj.resolve("c"),
             "c": lambda adj: True}
    for keys in itertools.permutations("abc"):
        assert Adjudicator(deciding(rules)).run(keys) == {"a": False, "b": True, "c": True}


def test_a_cycle_with_one_consistent_answer_needs_no_backup():
    """Guess and check: a depends on b and b on a, but only 'both fail' is consistent
    (b also needs d, which fails), so that is the answer and no backup rule is asked."""
    rules = {"a": lambda adj: adj.resolve("b"),
             "b": lambda adj: adj.resolve("a") and adj.resolve("d"),
             "d": lambda adj: False}
    adj = Adjudicator(deciding(rules))
    assert adj.run("abd") == {"a": False, "b": False, "d": False}
    assert adj.cycles == []


def test_two_cycle_with_both_guesses_consistent_goes_to_the_backup_rule():
    """a succeeds if b does and b if a does: both 'all succeed' and 'all fail' are
    consistent. The default backup rule treats it as circular movement: all succeed."""
    rules = {"a": lambda adj: adj.resolve("b"), "b": lambda adj: adj.resolve("a")}
    adj = Adjudicator(deciding(rules))
    assert adj.run(["a", "b"]) == {"a": True, "b": True}
    assert adj.cycles == [Cycle(("a", "b"), both_consistent=True)]


def test_paradox_goes_to_the_backup_rule_and_fails_by_default():
    """a succeeds only if b fails, and b succeeds only if a succeeds: no answer is
    consistent. By default the paradox's decisions all fail."""
    rules = {"a": lambda adj: not adj.resolve("b"), "b": lambda adj: adj.resolve("a")}
    adj = Adjudicator(deciding(rules))
    assert adj.run(["a", "b"]) == {"a": False, "b": False}
    assert adj.cycles == [Cycle(("a", "b"), both_consistent=False)]


def test_a_decision_that_contradicts_itself_is_a_paradox_of_one():
    """A decision that succeeds only if it fails has no consistent answer."""
    adj = Adjudicator(deciding({"a": lambda adj: not adj.resolve("a")}))
    assert adj.run(["a"]) == {"a": False}
    assert adj.cycles == [Cycle(("a",), both_consistent=False)]


def test_backup_rule_may_settle_part_of_a_cycle_and_the_rest_is_recomputed():
    """The backup rule answers some keys of the cycle; the others are computed again from
    that answer (here it fails a, so b, which needs a, fails too)."""
    seen: list[Cycle[str]] = []

    def fail_a(cycle: Cycle[str]) -> dict[str, bool]:
        seen.append(cycle)
        return {"a": False}

    rules = {"a": lambda adj: adj.resolve("b"), "b": lambda adj: adj.resolve("a")}
    assert Adjudicator(deciding(rules), fail_a).run(["b", "a"]) == {"b": False, "a": False}
    assert seen == [Cycle(("b", "a"), both_consistent=True)]


def test_decisions_depending_on_a_cycle_are_not_part_of_it():
    """x depends on the cycle b <-> c without being in it: the backup rule sees b and c
    only, and x takes the cycle's answer."""
    rules = {"x": lambda adj: adj.resolve("b"), "b": lambda adj: adj.resolve("c"),
             "c": lambda adj: adj.resolve("b")}
    adj = Adjudicator(deciding(rules))
    assert adj.run(["x"]) == {"x": True}
    assert adj.cycles == [Cycle(("b", "c"), both_consistent=True)]
    assert adj.resolve("c") is True


def test_decide_runs_again_for_guessed_decisions():
    """Decisions in a cycle are decided under each guess, so decide runs more than once for
    them: it must not roll dice or change anything."""
    calls: Counter = Counter()
    rules = {"a": lambda adj: adj.resolve("b"), "b": lambda adj: adj.resolve("a")}
    Adjudicator(deciding(rules, calls)).run(["a", "b"])
    assert calls["a"] >= 2 and calls["b"] >= 2


def test_results_do_not_depend_on_the_order_keys_are_asked_in():
    """Same decisions, any order asked: same answers, cycles and paradoxes included."""
    rules = {"a": lambda adj: adj.resolve("b"), "b": lambda adj: adj.resolve("c"),
             "c": lambda adj: adj.resolve("a"),                    # a rotation
             "p": lambda adj: not adj.resolve("q"), "q": lambda adj: adj.resolve("p"),
             "x": lambda adj: adj.resolve("a") and not adj.resolve("p"),
             "y": lambda adj: not adj.resolve("x")}
    answers = {frozenset(Adjudicator(deciding(rules)).run(keys).items())
               for keys in itertools.permutations("abcpqxy")}
    assert answers == {frozenset({"a": True, "b": True, "c": True, "p": False, "q": False,
                                  "x": True, "y": False}.items())}


def test_backup_rule_must_answer_keys_of_the_cycle():
    """A backup rule that answers nothing of the cycle would loop forever: refused."""
    rules = {"a": lambda adj: adj.resolve("b"), "b": lambda adj: adj.resolve("a")}
    with pytest.raises(ValueError, match="backup rule"):
        Adjudicator(deciding(rules), lambda cycle: {"z": True}).run(["a"])
    with pytest.raises(ValueError, match="backup rule"):
        Adjudicator(deciding(rules), lambda cycle: {}).run(["a"])


def test_default_backup_rule():
    """Circular movement succeeds as a whole; a paradox fails as a whole."""
    assert default_backup(Cycle(("a", "b"), True)) == {"a": True, "b": True}
    assert default_backup(Cycle(("a", "b"), False)) == {"a": False, "b": False}


def test_a_long_chain_does_not_exhaust_the_stack():
    """Each decision depends on the next, 20,000 deep (a column of units, each moving into
    the next one's province), and the interpreter's recursion limit is restored after."""
    depth = 20_000
    limit = sys.getrecursionlimit()

    def decide(key: int, adj: Adjudicator[int]) -> bool:
        return key == depth or adj.resolve(key + 1)

    assert Adjudicator(decide).run([0]) == {0: True}
    assert sys.getrecursionlimit() == limit

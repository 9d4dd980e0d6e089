"""Interdependent yes/no decisions, resolved by guess and check.

A simultaneous phase sees every order at once, and one order's outcome may depend on
another's: a move succeeds if the unit ahead of it leaves, a support counts unless it is cut,
and a cut may hang on a dislodgement. This module resolves such decisions without knowing
what they are about, after Lucas Kruijswijk's "The Math of Adjudication" (the algorithm of the
DATC's author, used by godip and most DATC-compliant judges):

- ``decide(key, adj)`` computes one decision and may ask ``adj.resolve(other)`` for others;
- a decision asked for while it is being computed is answered with a guess (first "fails",
  then "succeeds"), and every decision that used a guess is recomputed with the other one;
- if both guesses give the same answer, that is the answer; if both are consistent (each
  guess reproduces itself, as in circular movement) or neither is (a paradox), the decisions
  of that cycle go to a backup rule, and the rest are computed again from its answer.

``decide`` therefore runs more than once for some keys: it must be a pure function of the
keys it resolves (never roll a die inside it; roll before and pass the results in).
Results do not depend on the order of dicts or sets: keys are taken in the order given, and
the cycle handed to the backup rule lists its keys in the order they were met.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

#: Python frames one level of dependency may take (resolve -> decide -> its helpers).
FRAMES_PER_DECISION = 12


class _State(enum.Enum):
    UNRESOLVED = "unresolved"
    GUESSING = "guessing"
    RESOLVED = "resolved"


@dataclass(frozen=True)
class Cycle(Generic[K]):
    """Decisions that depend on each other with no single consistent answer.

    ``keys`` are the decisions that used the cycle's guess, in the order they were met (the
    decision that was guessed first). ``both_consistent`` is True when either answer would be
    consistent (circular movement: all move, or none), False when neither is (a paradox).
    """

    keys: tuple[K, ...]
    both_consistent: bool


Decide = Callable[[K, "Adjudicator[K]"], bool]
#: Answers a cycle: a resolution for at least one of its keys (and no other keys). Keys it
#: leaves out are computed again from those it answers.
BackupRule = Callable[[Cycle[K]], Mapping[K, bool]]


def default_backup(cycle: Cycle[K]) -> dict[K, bool]:
    """The default backup rule: a cycle where both answers are consistent succeeds as a whole
    (circular movement: every unit moves); a cycle with no consistent answer fails as a whole
    (a paradox: none of its orders has an effect)."""
    return dict.fromkeys(cycle.keys, cycle.both_consistent)


class Adjudicator(Generic[K]):
    """Resolve yes/no decisions that may depend on each other, cycles included.

    >>> adj = Adjudicator(lambda key, adj: key == "a" or adj.resolve("a"))
    >>> adj.run(["b", "a"])
    {'b': True, 'a': True}

    One adjudicator serves one phase: resolutions are kept, so a later ``run`` or
    ``resolve`` answers from them.
    """

    def __init__(self, decide: Decide[K], backup: BackupRule[K] = default_backup) -> None:
        self._decide = decide
        self._backup = backup
        self._state: dict[K, _State] = {}
        self._resolution: dict[K, bool] = {}
        # Decisions that used a guess, in the order they did so (the paper's dep_list).
        self._deps: list[K] = []
        self._in_deps: set[K] = set()
        #: every cycle handed to the backup rule, in the order they were met.
        self.cycles: list[Cycle[K]] = []
        self._depth = 0
        self._base_limit: int | None = None

    def run(self, keys: Iterable[K]) -> dict[K, bool]:
        """Resolve ``keys`` (and whatever they depend on); their resolutions in that order."""
        self._base_limit = sys.getrecursionlimit()
        try:
            return {key: self.resolve(key) for key in keys}
        finally:
            sys.setrecursionlimit(self._base_limit)
            self._base_limit = None

    def resolve(self, key: K) -> bool:
        """The resolution of ``key``: final, or the current guess while it is in a cycle."""
        state = self._state.get(key, _State.UNRESOLVED)
        if state is _State.RESOLVED:
            return self._resolution[key]
        if state is _State.GUESSING:
            self._depend(key)
            return self._resolution[key]
        self._depth += 1
        try:
            self._make_room()
            return self._guess_and_check(key)
        finally:
            self._depth -= 1

    def _guess_and_check(self, key: K) -> bool:
        start = len(self._deps)
        first = self._decide_with_guess(key, False)
        if len(self._deps) == start:
            # Nothing used a guess: final (unless a backup rule already settled it).
            if self._state[key] is not _State.RESOLVED:
                self._settle(key, first)
            return self._resolution[key]
        if self._deps[start] != key:
            # It used someone else's guess: that one's owner will recompute it.
            self._depend(key)
            self._resolution[key] = first
            return first

        # It used its own guess: try the other one.
        self._forget_from(start)
        second = self._decide_with_guess(key, True)
        if first == second:
            self._forget_from(start)
            self._settle(key, first)
            return first
        # Guess False gave True and guess True gave False: neither is consistent; the other
        # way round, both are.
        cycle = Cycle(tuple(self._deps[start:]), both_consistent=not first)
        self._apply_backup(cycle, start)
        return self.resolve(key)

    def _make_room(self) -> None:
        """Let a long chain of dependencies (a column of a thousand units, each moving into
        the next one's province) recurse as deep as it needs; ``run`` puts the limit back."""
        if self._base_limit is None:
            return
        needed = self._base_limit + FRAMES_PER_DECISION * self._depth
        if needed > sys.getrecursionlimit():
            sys.setrecursionlimit(self._base_limit + 2 * FRAMES_PER_DECISION * self._depth)

    def _decide_with_guess(self, key: K, guess: bool) -> bool:
        self._state[key] = _State.GUESSING
        self._resolution[key] = guess
        return bool(self._decide(key, self))

    def _depend(self, key: K) -> None:
        if key not in self._in_deps:
            self._deps.append(key)
            self._in_deps.add(key)

    def _settle(self, key: K, value: bool) -> None:
        self._state[key] = _State.RESOLVED
        self._resolution[key] = value

    def _forget_from(self, start: int) -> None:
        """Unresolve every decision that used a guess since ``start``."""
        while len(self._deps) > start:
            key = self._deps.pop()
            self._in_deps.discard(key)
            if self._state.get(key) is _State.GUESSING:
                self._state[key] = _State.UNRESOLVED

    def _apply_backup(self, cycle: Cycle[K], start: int) -> None:
        self.cycles.append(cycle)
        answer = dict(self._backup(cycle))
        stray = [k for k in answer if k not in cycle.keys]
        if stray or not answer:
            raise ValueError(
                f"the backup rule must resolve some of the cycle's keys {list(cycle.keys)} "
                f"and no others; it answered {answer}")
        for key in cycle.keys:
            if key in answer:
                self._settle(key, bool(answer[key]))
        self._forget_from(start)

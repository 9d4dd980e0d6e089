"""The cyclic collector is paused while a turn is read, resolved and written, and comes
back on as the caller had it, without traversing what the turn made."""

from __future__ import annotations

import contextlib
import gc

from sheetmaster.app.runs import Mode, run_turn
from sheetmaster.engine import collector


def test_paused_restores_the_callers_choice_and_nests():
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block leaves it to the outer one
    assert gc.isenabled()
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_what_the_block_made_goes_to_the_oldest_generation_unless_the_caller_froze():
    with collector.paused():
        made = [[n] for n in range(1000)]
    assert any(o is made for o in gc.get_objects(generation=2))
    mine = [object()]
    gc.freeze()
    try:
        with collector.paused():
            [[n] for n in range(1000)]
        assert all(o is not mine for o in gc.get_objects())  # still frozen
    finally:
        gc.unfreeze()


class _Store:
    """A store that remembers whether the collector ran while it read and wrote."""

    def __init__(self, state):
        self.state, self.seen = state, []

    @contextlib.contextmanager
    def locked(self):
        yield

    def load(self):
        self.seen.append(("load", gc.isenabled()))
        return self.state

    def save(self, ruleset, result):
        self.seen.append(("save", gc.isenabled()))


def test_a_run_reads_resolves_and_writes_with_the_collector_paused(example_state):
    store = _Store(example_state)
    outcome = run_turn(store, Mode.RESOLVE, force=True, seed=1)
    assert outcome.written
    assert store.seen == [("load", False), ("save", False)]
    assert gc.isenabled()

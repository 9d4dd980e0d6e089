"""The engine: a ruleset's phases run over a game's tables, purely.

State + orders + seed -> new state + a result for every order row + every event and die
(:func:`sheetmaster.engine.turn.resolve`). Its pipeline, in the order a turn goes through it:

- :mod:`~sheetmaster.engine.turn`: the turn itself: the tabs validated and bound to the
  ruleset's rows, the orders read, the phases run in order, the tabs written back;
- :mod:`~sheetmaster.engine.order_reading` and :mod:`~sheetmaster.engine.order_rows`: order
  rows read against the ruleset's order kinds (a malformed row is rejected with its reason);
- :mod:`~sheetmaster.engine.order_cap`: at most so many rows from one player a turn;
- :mod:`~sheetmaster.engine.order_outcomes`: what becomes of orders around the phases;
- :mod:`~sheetmaster.engine.checking`: ``check``, a turn in memory with practice dice;
- :mod:`~sheetmaster.engine.builder`: a game state from plain rows (tests, examples);
- :mod:`~sheetmaster.engine.collector`: the garbage collector paused while a turn runs.

It imports the kit (:mod:`sheetmaster.kit`) and never the application or a store.
"""

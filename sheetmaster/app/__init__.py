"""The application: the ``sheetmaster`` command and what it runs around the engine.

- :mod:`~sheetmaster.app.cli` and :mod:`~sheetmaster.app.commands`: the command line;
- :mod:`~sheetmaster.app.runs`: a turn run against a store (lock, load, resolve, write);
- :mod:`~sheetmaster.app.verify`: anyone's check that a turn's dice are the committed ones;
- :mod:`~sheetmaster.app.report`, :mod:`~sheetmaster.app.json_output`: what a turn changed,
  for players and for scripts;
- :mod:`~sheetmaster.app.delivery`, :mod:`~sheetmaster.app.maps`, :mod:`~sheetmaster.app.site`:
  posting the turn, its map and the game's site;
- :mod:`~sheetmaster.app.games`, :mod:`~sheetmaster.app.gamerepo`: games.toml and a game
  repository's nightly workflow;
- :mod:`~sheetmaster.app.exits`, :mod:`~sheetmaster.app.console`: exit codes and the terminal.

Nothing outside the application imports it.
"""

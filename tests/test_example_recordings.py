"""Every example game plays as it was recorded, turn by turn, cell by cell.

The recordings (``tests/recordings/NAME.jsonl``) were made before the engine was split into
kit, engine and application: a refactoring must leave every example game's every cell as it
was. A change that means to change a game records again, on purpose, and says so in its commit:
``python -m sheetmaster.testing.recordings tests/recordings``."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheetmaster.testing.recordings import examples, read, replay, turns_of

RECORDINGS = Path(__file__).parent / "recordings"


def test_every_example_game_has_a_recording():
    assert sorted(p.stem for p in RECORDINGS.glob("*.jsonl")) == examples()


@pytest.mark.parametrize("name", examples())
def test_the_example_game_plays_as_recorded(name: str):
    recorded = list(replay(read(RECORDINGS / f"{name}.jsonl")))
    played = list(turns_of(name, len(recorded) - 1))
    for turn, (was, now) in enumerate(zip(recorded, played)):
        for key in sorted(was.keys() | now.keys()):
            assert now.get(key) == was.get(key), (
                f"{name}, after turn {turn} of the recording: tab {key[0]!r}, row {key[1]}: "
                f"recorded {was.get(key)}, played {now.get(key)}")

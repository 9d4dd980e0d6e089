"""The claims game's settings: none. Every number a claims turn uses is the source's own
(income, army costs and upkeep, the war dice: see phases/), and its turns are plain numbers
(no calendar), so the Game tab holds only the settings every game has."""

from __future__ import annotations

from sheetmaster.kit import Setting

SETTINGS: tuple[Setting, ...] = ()

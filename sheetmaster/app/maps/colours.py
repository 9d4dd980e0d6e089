"""Colours on the map: reading a cell as a colour, and a colour for every player.

A cell may hold ``#1f77b4``, ``1f77b4``, ``#17b``, ``rgb(31, 119, 180)`` or a colour name
(``teal``); what Pillow's ImageColor reads, plus hex without its ``#``. A player with no
colour gets one from a fixed palette by their place in the players tab, so the map keeps its
colours from turn to turn as long as the tab keeps its order.
"""

from __future__ import annotations

import re

from PIL import ImageColor

RGB = tuple[int, int, int]

_BARE_HEX = re.compile(r"^[0-9a-fA-F]{6}$|^[0-9a-fA-F]{3}$")

#: distinct, readable fills (Tableau 20's strong half first, then its light half).
PALETTE: tuple[str, ...] = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
    "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5",
)
#: units and occupiers that are nobody's (Independents, rebels).
NOBODY: RGB = (90, 90, 90)


class BadColour(ValueError):
    """A cell that is not a colour; the message says what it holds."""


def parse_colour(text: str) -> RGB:
    """The colour ``text`` names; raises :class:`BadColour`."""
    text = text.strip()
    if len(text) == 7 and text[0] == "#" and _BARE_HEX.match(text[1:]):  # the common case
        value = int(text[1:], 16)
        return value >> 16, (value >> 8) & 255, value & 255
    if _BARE_HEX.match(text):
        text = "#" + text
    try:
        got = ImageColor.getrgb(text)
    except ValueError:
        raise BadColour(f"'{text}' is not a colour (write it like #1f77b4, or a name like "
                        "teal)") from None
    return got[0], got[1], got[2]


def packed(colour: RGB) -> int:
    """0xRRGGBB: how the key image's pixels are compared."""
    return (colour[0] << 16) | (colour[1] << 8) | colour[2]


def hex_colour(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def palette_colour(index: int) -> RGB:
    return parse_colour(PALETTE[index % len(PALETTE)])


def ink_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour`` (WCAG relative luminance)."""
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (0, 0, 0) if luminance > 0.22 else (255, 255, 255)


def darker(colour: RGB, by: float = 0.55) -> RGB:
    return (int(colour[0] * by), int(colour[1] * by), int(colour[2] * by))

"""Mistakes a GM makes in a cell that lists names of the tab's own rows (borders,
waterways), shared by the tests that compare a bulk reading of such cells with the reading
cell by cell."""

from __future__ import annotations

import random

#: the mistakes :func:`misspell` makes in one row's list.
IN_A_LIST = ("itself", "twice", "case", "spacing", "unknown")


def misspell(rng: random.Random, how: str, links: list[str], own_name: str) -> None:
    """Make mistake ``how`` (one of :data:`IN_A_LIST`) in ``links``, the list of the row
    named ``own_name``: it names itself, a name twice, a name in other case or spacing, or a
    name that is no row's. A mistake that needs a name does nothing to an empty list."""
    if how == "itself":
        links.insert(rng.randint(0, len(links)), own_name)
    elif how == "twice" and links:
        links.append(links[0])
    elif how == "case" and links:
        links[0] = links[0].lower()
    elif how == "spacing" and links:
        links[-1] = " " + links[-1] + "  "
    elif how == "unknown":
        links.append("Atlantis")

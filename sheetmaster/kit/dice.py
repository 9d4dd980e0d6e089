"""Seeded, logged randomness: dice, chances, weighted picks and shuffles.

Every draw goes through :class:`Dice`, which records who drew, why, and what came out as an
:class:`~sheetmaster.kit.model.Event`. Values come from BLAKE2b over (seed, draw number), so they
depend on nothing but the seed and the order of draws. Draws players must not be able to
reconstruct (a deck's order) come from a separate stream keyed by the game's secret, so they
never shift the public dice nor follow from a revealed turn seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from sheetmaster.kit.model import GM_ONLY, PUBLIC

T = TypeVar("T")

#: (who, text, sides, value, audience, kind) -> None: how a draw is logged.
OnDraw = Callable[[str, str, int, int, str, str], None]


def turn_seed(game_seed: str, turn: int) -> int:
    """The dice seed of one turn: derived from the game's seed and the turn number."""
    digest = hashlib.sha256(f"sheetmaster:{game_seed}:{turn}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def stream_seed(secret: str, name: str) -> int:
    """The seed of a named stream of hidden draws (e.g. one shuffle of one deck)."""
    digest = hashlib.sha256(f"sheetmaster-stream:{secret}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Dice:
    """Deterministic draws for one turn. ``secret`` keys hidden streams (:meth:`hidden`).

    The turn's seed is revealed after the resolve, so that anyone can check the public dice
    of the Log: a draw not everyone may see (a private or GM-only roll) comes from the turn's
    private stream instead, keyed by the secret, so that the revealed seed never tells it and
    it never shifts the public dice.
    """

    def __init__(self, seed: int, secret: str = "") -> None:
        self.seed = seed
        self.secret = secret
        self._count = 0
        self.on_roll: OnDraw | None = None
        self._private: Dice | None = None
        #: the turn's own stream (False for a hidden one, which is private already).
        self.revealed = True

    def _source(self, audience: str) -> Dice:
        """The stream a draw seen by ``audience`` comes from (see the class docstring)."""
        if audience == PUBLIC or not self.revealed:
            return self
        if self._private is None:
            self._private = Dice(stream_seed(self.secret, f"private draws of turn {self.seed}"),
                                 self.secret)
            self._private.revealed = False
        return self._private

    def _draw(self, sides: int, name: str = "") -> int:
        # Rejection sampling keeps every face equally likely.
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            self._count += 1
            data = self.seed.to_bytes(8, "big") + self._count.to_bytes(8, "big")
            n = int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")
            if n < limit:
                return n % sides + 1

    def _log(self, who: str, text: str, sides: int, value: int, audience: str,
             kind: str = "die") -> None:
        if self.on_roll is not None:
            self.on_roll(who, text, sides, value, audience, kind)

    def roll(self, sides: int, who: str, why: str, *, name: str = "",
             audience: str = PUBLIC) -> int:
        """Roll one die with ``sides`` faces for ``who``, logging ``why``. ``name`` is how a
        golden test scripts this draw (default: ``why``)."""
        value = self._source(audience)._draw(sides, name or why)
        self._log(who, f"d{sides} for {why}: {value}", sides, value, audience)
        return value

    def chance(self, k: int, n: int, who: str, why: str, *, name: str = "",
               audience: str = PUBLIC) -> bool:
        """A k-in-n chance: a d``n`` at or under ``k`` succeeds."""
        value = self._source(audience)._draw(n, name or why)
        happened = value <= k
        self._log(who, f"{k} in {n} for {why}: rolled {value}, {'yes' if happened else 'no'}",
                  n, value, audience)
        return happened

    def pick(self, table: Sequence[tuple[T, int]], who: str, why: str, *, name: str = "",
             audience: str = PUBLIC) -> T:
        """One entry of a weighted table: (entry, weight) pairs, weights whole and > 0."""
        total = sum(weight for _, weight in table)
        if total <= 0 or any(weight < 0 for _, weight in table):
            raise ValueError(f"weights must be whole and positive: {table!r}")
        value = self._source(audience)._draw(total, name or why)
        running = 0
        for entry, weight in table:
            running += weight
            if value <= running:
                self._log(who, f"{why}: rolled {value} of {total}: {entry}", total, value,
                          audience)
                return entry
        raise AssertionError("unreachable")

    def shuffle(self, items: Iterable[T], who: str, why: str, *, name: str = "",
                audience: str = GM_ONLY, quiet: bool = False) -> list[T]:
        """The items in a random order (Fisher-Yates), logged as one event, GM-only unless
        told otherwise: the order is what players must not see. ``quiet``: not logged (the
        order of an earlier shuffle worked out again)."""
        out, source = list(items), self._source(audience)
        for i in range(len(out) - 1, 0, -1):
            j = source._draw(i + 1, name or why) - 1
            out[i], out[j] = out[j], out[i]
        if not quiet:
            self._log(who, f"shuffled {len(out)} for {why}", len(out), len(out), audience,
                      kind="shuffle")
        return out

    def hidden(self, name: str) -> Dice:
        """A stream of draws keyed by the game's secret and ``name``: the same for the same
        name in every turn, unknown to anyone without the secret, and independent of the
        turn's public dice. Its draws are logged like the parent's."""
        child = Dice(stream_seed(self.secret, name), self.secret)
        child.on_roll = self.on_roll
        child.revealed = False
        return child


class PracticeDice(Dice):
    """Draws for a practice run (``check``): each is remembered by what it is for (its name,
    and how many draws of that name came before), and given an earlier practice run's dice,
    a draw made again for the same thing comes up the other way (a 2 on a d6 becomes a 5; the
    middle face of an odd die another face), so an outcome that stays the same did not
    depend on it. Hidden streams are practice too."""

    def __init__(self, seed: int, mirror: PracticeDice | None = None) -> None:
        super().__init__(seed)
        self.rolled: dict[tuple[str, int], int] = {}
        self._counts: dict[str, int] = {}
        self._mirror = mirror.rolled if mirror is not None else {}

    def _draw(self, sides: int, name: str = "") -> int:
        n = self._counts.get(name, 0)
        self._counts[name] = n + 1
        earlier = self._mirror.get((name, n))
        if earlier is not None and 1 <= earlier <= sides and sides > 1:
            value = sides + 1 - earlier
            if value == earlier:  # the middle face of an odd die: another face
                value = earlier % sides + 1
        else:
            value = super()._draw(sides, name)
        self.rolled[(name, n)] = value
        return value

    def hidden(self, name: str) -> Dice:
        return self

    def _source(self, audience: str) -> Dice:
        return self


class ScriptedDice(Dice):
    """Draws a golden test scripts: ``named`` draws by name, the rest in order (``values``).

    A named script is a value or a list of values used in turn; for a shuffle, the order of
    the items it must come out in.
    """

    def __init__(self, values: Iterable[int] = (), seed: int = 0,
                 named: Mapping[str, Any] | None = None) -> None:
        super().__init__(seed)
        self._values = list(values)
        self._next = 0
        self._named = {k: (list(v) if isinstance(v, (list, tuple)) else [v])
                       for k, v in (named or {}).items()}

    def _draw(self, sides: int, name: str = "") -> int:
        script = self._named.get(name)
        if script:
            value = script.pop(0)
        else:
            if self._next >= len(self._values):
                raise AssertionError(f"the test scripted {len(self._values)} dice, more were "
                                     f"rolled (this one: d{sides} for {name!r})")
            value = self._values[self._next]
            self._next += 1
        if not isinstance(value, int) or not 1 <= value <= sides:
            raise AssertionError(f"scripted value {value!r} does not fit a d{sides} "
                                 f"({name!r})")
        return value

    def shuffle(self, items: Iterable[T], who: str, why: str, *, name: str = "",
                audience: str = GM_ONLY, quiet: bool = False) -> list[T]:
        items, key = list(items), name or why
        script = self._named.get(key)
        if not script:
            return super().shuffle(items, who, why, name=name, audience=audience, quiet=quiet)
        # One order (a list of items), or a list of orders, one per shuffle in turn.
        order = [str(x) for x in (script.pop(0) if isinstance(script[0], (list, tuple))
                                  else self._named.pop(key))]
        if sorted(order) != sorted(str(x) for x in items):
            raise AssertionError(f"scripted order for {name or why!r} is not a shuffle of "
                                 f"{[str(x) for x in items]}")
        by_text: dict[str, list[T]] = {}
        for item in items:
            by_text.setdefault(str(item), []).append(item)
        if not quiet:
            self._log(who, f"shuffled {len(items)} for {why}", len(items), len(items),
                      audience, kind="shuffle")
        return [by_text[text].pop(0) for text in order]

    def hidden(self, name: str) -> Dice:
        return self  # scripts apply to every stream

    def _source(self, audience: str) -> Dice:
        return self

    @property
    def unused(self) -> list[Any]:
        return self._values[self._next:] + [v for vs in self._named.values() for v in vs]

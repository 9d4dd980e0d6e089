"""Why an order was rejected or only partly applied: one readable message per reason.

Phases call ``reason.say(**details)`` and the text goes into the order row's reason cell.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reason:
    code: str
    message: str

    def say(self, **details: object) -> str:
        return self.message.format(**details)


# Reading the order row
BLANK_PLAYER = Reason("BLANK_PLAYER", "no player is named in the 'player' column")
UNKNOWN_PLAYER = Reason("UNKNOWN_PLAYER", "there is no player named {name}")
BLANK_ORDER = Reason("BLANK_ORDER", "the 'order' column is blank; pick one of: {kinds}")
UNKNOWN_ORDER = Reason("UNKNOWN_ORDER", "{name} is not an order; pick one of: {kinds}")
MISSING_FIELD = Reason("MISSING_FIELD", "'{kind}' needs the '{column}' column filled in")
BAD_FIELD = Reason("BAD_FIELD", "column '{column}': {problem}")
UNKNOWN_NAME = Reason("UNKNOWN_NAME", "column '{column}': there is no {what} named {name}")
LOOKS_LIKE_FORMULA = Reason(
    "LOOKS_LIKE_FORMULA",
    "column '{column}': {value} looks like a spreadsheet formula; type plain text",
)
WRONG_TURN = Reason(
    "WRONG_TURN",
    "this order is for turn {given}, but turn {turn} is being resolved; "
    "orders can only be given for the current turn",
)
BAD_TURN = Reason("BAD_TURN", "column 'turn': {problem}")
DUPLICATE = Reason(
    "DUPLICATE",
    "same as order row {first} (same player, order and details); post one order instead",
)
WRONG_SENDER = Reason(
    "WRONG_SENDER",
    "this order was sent from {email}, which is not {player}'s address",
)
NOT_RESOLVED = Reason("NOT_RESOLVED", "no phase of the rules used this order")
NOT_NOW = Reason("NOT_NOW", "'{kind}' orders are not taken now: this is {now}")
SETUP_ONLY = Reason("SETUP_ONLY", "this is the setup turn (turn 0): only {kinds} orders now")
NO_SETUP_ORDERS = Reason("NO_SETUP_ORDERS", "this is the setup turn (turn 0): the rules take no "
                                            "orders on it")
NOT_SETUP = Reason("NOT_SETUP", "'{kind}' is only given on the setup turn (turn 0)")
GM_ONLY = Reason("GM_ONLY", "only the GM may give '{kind}' orders (in the GM's orders tab)")
OVER_CAP = Reason(
    "OVER_CAP",
    "not read: only the first {cap} order rows a player posts in a turn are read (the Game "
    "tab's '{setting}')",
)

# Shared by rulesets
IN_EXILE = Reason("IN_EXILE", "players in exile cannot {action}")

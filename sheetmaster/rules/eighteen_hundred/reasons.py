"""Why a 1800 order was rejected, blocked or not needed."""

from __future__ import annotations

from sheetmaster.kit import Reason

# the draft
NOT_FACE_UP = Reason("NOT_FACE_UP", "{card} is not face up in the draft row{why}")
PICKED_ALREADY = Reason("PICKED_ALREADY", "you picked {card} already: one pick a draft")
CANNOT_ADOPT = Reason("CANNOT_ADOPT", "{problem}")

# collection
NO_DEFICIT = Reason("NO_DEFICIT", "no food deficit this turn ({output} food made, "
                                  "{use} eaten)")
ONE_DEFICIT_ORDER = Reason("ONE_DEFICIT_ORDER", "your first deficit order is the one used")
BAD_HOW = Reason("BAD_HOW", "'how' is {options}, not {given}")
TOO_FEW_TOKENS = Reason("TOO_FEW_TOKENS", "your {where} hold {have} food tokens, not the "
                                          "{deficit} the deficit takes; {instead}")
NO_POP_THERE = Reason("NO_POP_THERE", "you have no pop to give up in {province}; {instead}")

# cards in play
NOT_IN_PLAY = Reason("NOT_IN_PLAY", "{card} is not among your cards in play")
NO_SLOTS = Reason("NO_SLOTS", "{card} has no {resource} squares")
NO_ROOM = Reason("NO_ROOM", "{card} has room for {free} more {resource}, not {amount}")
TOO_FEW = Reason("TOO_FEW", "you have {have} {resource} left to place this turn, not {amount}")
NO_ARROW = Reason("NO_ARROW", "{card} cannot be activated (it has no reward)")
ACTIVATED = Reason("ACTIVATED", "{card} was activated this turn already (once a turn)")
NOT_ENOUGH_ON = Reason("NOT_ENOUGH_ON", "{card} holds {have}; it needs {needs}")
NOT_IN_HAND = Reason("NOT_IN_HAND", "you hold no {pile} card {card}")
CANNOT_PAY = Reason("CANNOT_PAY", "its cost, {cost}: {problem}")
NEEDS_DECLARE = Reason("NEEDS_DECLARE", "{card} is spent with a 'declare war' order")
NO_REWARD = Reason("NO_REWARD", "{card} does nothing when played on its own")

# rewards
NEEDS = Reason("NEEDS", "the reward '{effect}' needs the '{column}' column")
NOT_CONTROLLED = Reason("NOT_CONTROLLED", "you do not control {province}{holder}")
WRONG_PLACE = Reason("WRONG_PLACE", "a {improvement} is built in a {where}, and {province} is "
                                    "a {type}")
FULL = Reason("FULL", "{province} holds {cap} improvements, its most: name one to destroy "
                      "in 'destroy'")
NOT_THERE = Reason("NOT_THERE", "{province} has no {improvement} to destroy")
NOT_FULL = Reason("NOT_FULL", "{province} has room: nothing is destroyed to make room unless "
                              "it is full")
WRONG_TYPE = Reason("WRONG_TYPE", "the reward builds a {wanted}, not a {given}")
NOT_IN_DECK = Reason("NOT_IN_DECK", "{card} is not a technology in the development deck")
NO_MINORITY = Reason("NO_MINORITY", "{province} holds no pops of {target} you could take "
                                    "({what})")
HOLD_ROUTE = Reason("HOLD_ROUTE", "you hold a trade token on {route} already")
NO_TOKEN = Reason("NO_TOKEN", "{target} holds no trade token on {route}")
NO_REGIMENT_ROOM = Reason("NO_REGIMENT_ROOM", "a regiment is raised where you have a pop and "
                                              "no regiment stands; {province} {problem}")

# war declarations
SELF = Reason("SELF", "a nation cannot declare war on itself")
AT_WAR = Reason("AT_WAR", "you are at war with {target} this round already")
NO_CONQUEST = Reason("NO_CONQUEST", "your national ambition gives no war of conquest")
ONCE_A_ROUND = Reason("ONCE_A_ROUND", "you declared a war of conquest this round already "
                                      "(once a round)")
NO_DIPLOMATIC = Reason("NO_DIPLOMATIC", "you hold no Diplomatic Action card")
NO_AGGRESSION = Reason("NO_AGGRESSION", "{target} did nothing aggressive against you since "
                                        "your last turn")

# end-of-turn moves
NO_MOVES = Reason("NO_MOVES", "your cards allow {allowed} {what} moves a turn; {used} used")
NOT_ADJACENT = Reason("NOT_ADJACENT", "{to} is not next to {province}")
NO_FREE_POPS = Reason("NO_FREE_POPS", "you have {have} pops free to move in {province}")
NO_ROOM_POPS = Reason("NO_ROOM_POPS", "{to} is a countryside: it holds 2 pops at most")
NO_OWN_REGIMENT = Reason("NO_OWN_REGIMENT", "no regiment of yours stands in {province}")
CONSCRIPTED = Reason("CONSCRIPTED", "a conscripted regiment cannot move")
OCCUPIED = Reason("OCCUPIED", "a regiment of {holder} stands in {to} already{why}")

# the war
NOT_AT_WAR = Reason("NOT_AT_WAR", "you are not at war this round")
BEYOND = Reason("BEYOND", "beyond your {actions} war actions")
IN_BATTLE = Reason("IN_BATTLE", "the regiment in {province} is in a battle and cannot move")
BATTLE_THERE = Reason("BATTLE_THERE", "a battle is under way in {to}")
NOT_INVOLVED = Reason("NOT_INVOLVED", "{holder}'s regiment stands in {to}, and you are not at "
                                      "war with {holder}")
NO_POP = Reason("NO_POP", "you have no pop to conscript in {province}")
MARKS = Reason("MARKS", "{card} marks a province: name it in 'province'")

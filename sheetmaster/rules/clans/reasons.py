"""Why a clans order was rejected or only partly applied."""

from sheetmaster.kit import Reason

DESTROYED = Reason("DESTROYED", "your clan was destroyed ({when})")
NOT_STARTED = Reason("NOT_STARTED", "your clan has not been set up yet")
TARGET_DESTROYED = Reason("TARGET_DESTROYED", "{clan} was destroyed")
TARGET_NOT_STARTED = Reason("TARGET_NOT_STARTED", "{clan} has not been set up yet")
NOT_YOURS = Reason("NOT_YOURS", "{province} is not yours ({owner} holds it)")
# starting extras
NO_EXTRAS_LEFT = Reason("NO_EXTRAS_LEFT", "you have taken both starting extras ({extras})")
TECH_HAS_PREREQUISITE = Reason(
    "TECH_HAS_PREREQUISITE",
    "a free starting tech can't have any prerequisites, and {tech} needs {requires}")
HAVE_TECH = Reason("HAVE_TECH", "you already have {tech}")
EXTRA_NOT_ADJACENT = Reason("EXTRA_NOT_ADJACENT",
                            "{province} does not border your capital {capital}")
EXTRA_NOT_INDEPENDENT = Reason("EXTRA_NOT_INDEPENDENT", "{province} is held by {owner}")
# armies
ONE_ARMY = Reason("ONE_ARMY", "you can raise only 1 army a turn (order row {row} did)")
NOT_SPAWN_POINT = Reason(
    "NOT_SPAWN_POINT",
    "{province} has no Palace, Army Camp or Castle of yours to raise an army at")
AT_ARMY_LIMIT = Reason("AT_ARMY_LIMIT",
                       "you have {armies} and your Max Army Limit is {limit}")
NAME_TAKEN = Reason("NAME_TAKEN", "there is already an army named {name}")
NO_SUCH_ARMY = Reason("NO_SUCH_ARMY", "there is no army named {name}")
NOT_YOUR_ARMY = Reason("NOT_YOUR_ARMY", "army {army} is not yours ({owner}'s)")
NEW_ARMY = Reason("NEW_ARMY", "army {army} was raised this turn: newly raised armies cannot move")
MOVED = Reason("MOVED", "army {army} has already moved this turn (1 province a turn)")
SAME_PROVINCE = Reason("SAME_PROVINCE", "army {army} is already in {province}")
NOT_ADJACENT = Reason(
    "NOT_ADJACENT",
    "{to} does not border {province}, and no Dock of yours in {province} crosses a Sea to it")
# improvements
FLAVOUR = Reason("FLAVOUR",
                 "a {improvement} can only be built on {allowed}; {province} is {flavour}")
NOT_COASTAL = Reason("NOT_COASTAL", "a {improvement} needs a province adjacent to the Sea")
KIND_LIMIT = Reason("KIND_LIMIT", "{province} already has {have} (at most {limit})")
FULL = Reason("FULL", "{province} already has 4 improvements")
MINE_RESOURCE = Reason("MINE_RESOURCE",
                       "a Mine needs a resource prospected in {province} (found: {found})")
NO_IMPROVEMENT = Reason("NO_IMPROVEMENT", "{province} has no {improvement}")
CASTLE_STURDY = Reason("CASTLE_STURDY", "Castles, being massive and sturdy constructions, "
                                        "cannot be targeted")
# prospecting
NOT_MOUNTAIN = Reason("NOT_MOUNTAIN", "only Mountain provinces can be prospected; "
                                      "{province} is {flavour}")
ALREADY_FOUND = Reason("ALREADY_FOUND", "{resource} was already found in {province}")
ALL_FOUND = Reason("ALL_FOUND", "every Mountain resource was already found in {province}")
NOT_MOUNTAIN_RESOURCE = Reason("NOT_MOUNTAIN_RESOURCE",
                               "{resource} is not found in Mountains (Copper, Iron, Silver, "
                               "Sulphur)")
# advisors
ONE_ADVISOR = Reason("ONE_ADVISOR", "you can hire only 1 advisor a turn (order row {row} did)")
COURT_FULL = Reason("COURT_FULL", "your court is full: {count} advisors, {slots} slots")
NOT_AT_COURT = Reason("NOT_AT_COURT", "you have no {skill} at court")
NO_SUCH_ADVISOR = Reason("NO_SUCH_ADVISOR", "{clan} has no {skill} at court")
# research
UNKNOWN_PREREQUISITE = Reason("UNKNOWN_PREREQUISITE", "{tech} needs {requires} first")
ALREADY_RESEARCHING = Reason("ALREADY_RESEARCHING", "you are already researching {tech}")
# capital
CAPITAL_ALREADY = Reason("CAPITAL_ALREADY", "{province} is already your capital")
CAPITAL_TOO_SOON = Reason(
    "CAPITAL_TOO_SOON",
    "the capital moved on turn {turn}: only once a year (every 4 turns), next on turn {next}")
# diplomacy
NOT_YOUR_TECH = Reason("NOT_YOUR_TECH", "you have not completed {tech}")
THEY_HAVE_TECH = Reason("THEY_HAVE_TECH", "{clan} already has {tech}")
# ninjas
ONE_NINJA = Reason("ONE_NINJA", "you can send only 1 Ninja a turn (order row {row} did)")
SABOTAGE_OWNER = Reason("SABOTAGE_OWNER", "{province} is not an enemy clan's province")
BLAME_TARGET = Reason("BLAME_TARGET", "the false report cannot name its own receiver as the "
                                      "hirer")

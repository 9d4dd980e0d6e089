"""Why a Golden Age order was rejected, blocked or only partly applied."""

from __future__ import annotations

from sheetmaster.kit import Reason

# units
NOT_YOUR_UNIT = Reason("NOT_YOUR_UNIT", "{unit} is {owner}'s, not yours")
NO_SUCH_UNIT = Reason("NO_SUCH_UNIT", "there is no unit {unit} in play")
WRONG_TYPE = Reason("WRONG_TYPE", "'{kind}' is an order for {types}; {unit} is a {type}")
ORDERED_TWICE = Reason("ORDERED_TWICE", "{unit} was already given an order (row {row}); "
                       "each unit takes one order a turn")
NO_ORDERS = Reason("NO_ORDERS", "{unit} may take no orders this turn: {why}")
ABOARD = Reason("ABOARD", "{unit} is aboard {ships} and takes no orders until it is "
                "disembarked")
DISBANDING = Reason("DISBANDING", "{unit} is being disbanded")
NOT_ADJACENT = Reason("NOT_ADJACENT", "{to} is not next to {at}")
NO_ROUTE = Reason("NO_ROUTE", "{unit} cannot reach {to} from {at}: not adjacent, and no "
                  "railroad route of at most {bonus} links through friendly, unoccupied "
                  "provinces leads there (digest F23-F25)")
SAME_PLACE = Reason("SAME_PLACE", "{unit} is in {to} already")
OWN_PROVINCE = Reason("OWN_PROVINCE", "{to} is yours and no enemy holds it: march there")
TARGET_NEEDED = Reason("TARGET_NEEDED", "{to} holds {forces}: name the nation whose forces "
                       "you attack in 'target', or 'any' (digest F30)")
BAD_TARGET = Reason("BAD_TARGET", "'target': {target} is not a nation, Rebels or 'any'")
SELF_TARGET = Reason("SELF_TARGET", "you cannot attack your own forces")
BAD_INTENT = Reason("BAD_INTENT", "'intent': {intent} is not {allowed}")
INTEGRATE_NEUTRAL = Reason("INTEGRATE_NEUTRAL", "only Infantry marching into a Neutral "
                           "province may intend to integrate it; {to} is {owner}'s")
NOT_INFANTRY = Reason("NOT_INFANTRY", "{unit} is a {type}; only Infantry {action}")
NOT_CONSCRIPT_IN_CORE = Reason("NOT_CONSCRIPT_IN_CORE", "{unit} is not a Conscript in a core "
                               "province of yours")

# capitals and administration
NOT_YOUR_PROVINCE = Reason("NOT_YOUR_PROVINCE", "{province} is not yours")
OCCUPIED = Reason("OCCUPIED", "{province} is occupied by {occupier}")
NOT_CORE = Reason("NOT_CORE", "{province} is not a core province")
CAPITAL_NOT_LOST = Reason("CAPITAL_NOT_LOST", "your capital {capital} has not fallen")
NOT_PROVISIONAL = Reason("NOT_PROVISIONAL", "you are not using a provisional capital")
ORIGINAL_NOT_BACK = Reason("ORIGINAL_NOT_BACK", "you have not recaptured your original "
                           "capital {capital}")
NOT_A_CAPITAL = Reason("NOT_A_CAPITAL", "{province} is neither your original capital nor "
                       "your provisional capital")
NOT_PEACETIME = Reason("NOT_PEACETIME", "not in peacetime: {why}")
BAD_CAPITAL_SITE = Reason("BAD_CAPITAL_SITE", "{province} is not a valid site: {why}")
ALREADY_MOVING = Reason("ALREADY_MOVING", "your capital is already moving (timer {timer})")
BLANK_NAME = Reason("BLANK_NAME", "'name' is blank")

# upkeep
GATED = Reason("GATED", "not processed: your upkeep of {upkeep} is more than your {currency} "
               "currency even after the disbands you ordered (they spare {relief}); "
               "\"The players orders will not be processed unless the required disband orders "
               "are present and valid\"")

# naval
NOT_A_SHIP = Reason("NOT_A_SHIP", "{unit} is not a ship")
ABANDONED = Reason("ABANDONED", "{unit} is abandoned")
BAD_PATH = Reason("BAD_PATH", "'path': {why}")
TOO_FEW_ACTIONS = Reason("TOO_FEW_ACTIONS", "{unit} has {actions} movement actions; this "
                         "needs {needed} (digest F47)")
NO_MOVE_AFTER = Reason("NO_MOVE_AFTER", "{unit} was ordered to {kind} in {at} (row {row}): "
                       "\"No additional movement of the ordered unit may occur after issuing "
                       "this order\"")
NOT_CARRIER = Reason("NOT_CARRIER", "{unit} is a {type}; only Warships and Battleships carry "
                     "troops, supply and support (digest F39)")
NOT_ABOARD = Reason("NOT_ABOARD", "{unit} is not aboard {ship}")
NOT_COASTAL = Reason("NOT_COASTAL", "{province} is not next to {where}")
NO_CAPACITY = Reason("NO_CAPACITY", "no room aboard for {units}")
BAD_BLOCKADE = Reason("BAD_BLOCKADE", "{province} has no port in {zone}")
FRIENDLY_PORT = Reason("FRIENDLY_PORT", "the port of {province} is not an enemy's")
PINNED = Reason("PINNED", "{unit} ended its movement in {at}, not {planned}: {why}")
RETREATED = Reason("RETREATED", "{unit} lost the battle in {at} and retreated")
SUNK = Reason("SUNK", "{unit} was sunk")
APART = Reason("APART", "the ships of one embark order must be in the same place")
NO_SUCH_NATIONS = Reason("NO_SUCH_NATIONS", "'target': name nations, or 'any'")

# economy
NO_BUILDING = Reason("NO_BUILDING", "{province} has no {what} of yours")
NOT_MUSTER_SITE = Reason("NOT_MUSTER_SITE", "{province} is neither your capital nor has a "
                         "Military Academy")
ARTILLERY_BUSY = Reason("ARTILLERY_BUSY", "the Factory in {province} is building an "
                        "Artillery already (timer {timer}): one at a time")
PORT_LEVEL = Reason("PORT_LEVEL", "a Battleship needs a level 4 Port; {province}'s is level "
                    "{level}")
BATTLESHIP_LIMIT = Reason("BATTLESHIP_LIMIT", "you have {count} Battleships built or building; "
                          "the limit is 2")
HAS_ONE = Reason("HAS_ONE", "{province} has a {what} already, or one is being built (one per "
                 "province)")
FACTORY_LIMIT = Reason("FACTORY_LIMIT", "{province} may have {limit} factories (economic "
                       "value {ev} / 3, rounded up); it has {count} built or building")
NO_ENTRENCHED = Reason("NO_ENTRENCHED", "no entrenched Infantry of yours stands in "
                       "{province}")
FORT_STATE = Reason("FORT_STATE", "the Fort in {province} is {state}")
NOT_FULLY_CONTROLLED = Reason("NOT_FULLY_CONTROLLED", "{province} is not fully controlled by "
                              "you")
RAIL_LIMIT = Reason("RAIL_LIMIT", "you have {count} railroads under construction; your tech "
                    "level {tech} allows that many at once")
HAS_RAILROAD = Reason("HAS_RAILROAD", "a railroad between {a} and {b} exists or is being "
                      "built")
CANAL_STATE = Reason("CANAL_STATE", "canal {canal} is {state}")
CANAL_YEAR_CAP = Reason("CANAL_YEAR_CAP", "you have invested {done} in {canal} this year; "
                        "the most is 50 a year")
MAX_TECH = Reason("MAX_TECH", "your tech level is 5 already")
UPGRADED_ALREADY = Reason("UPGRADED_ALREADY", "{province} was upgraded already (once per "
                          "province)")
NOT_DUE = Reason("NOT_DUE", "no instalment of {deal} falls due this turn (next: turn {due})")
NOT_PAYER = Reason("NOT_PAYER", "{deal} is paid by {payer}")
DEAL_TAKEN = Reason("DEAL_TAKEN", "an agreement named {deal} exists already")
SELF_DEAL = Reason("SELF_DEAL", "an agreement needs another nation")
NO_DEPLOY = Reason("NO_DEPLOY", "{resource} is not among your starting resources left to "
                   "deploy ({left})")
NOT_COASTAL_PORT = Reason("NOT_COASTAL_PORT", "a ship is deployed at a Port of yours; "
                          "{province} has none")

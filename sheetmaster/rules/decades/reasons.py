"""Why a decades order was rejected or only partly applied."""

from sheetmaster.kit import Reason

GONE = Reason("GONE", "{state} is no more ({status})")
NOT_PLAYED = Reason("NOT_PLAYED", "{state} is a non-player state: the GM gives its orders, in "
                                  "the GM orders tab")
TARGET_GONE = Reason("TARGET_GONE", "{state} is no more")
NOT_YOURS = Reason("NOT_YOURS", "{province} is not {state}'s ({owner} controls it)")
TRIBAL = Reason("TRIBAL", "{state} is Tribal: {what}")
NOT_TRIBAL = Reason("NOT_TRIBAL", "{state} is not Tribal: only Tribal states {what}")
# spending
TOP_STABILITY = Reason("TOP_STABILITY", "{state}'s stability is already 4, the most")
SAME_RELIGION = Reason("SAME_RELIGION", "{province} already has {state}'s {what}, {name}")
SETTLED = Reason("SETTLED", "{province} is settled: only unsettled provinces (red dot) are "
                            "colonized")
ONCE_A_TURN = Reason("ONCE_A_TURN", "{state} already tried to civilize this turn (one roll "
                                    "a turn)")
CIVILIZED = Reason("CIVILIZED", "{state} is already civilized: it names its government next "
                                "turn (decision {decision})")
SUBSIDY_CAP = Reason("SUBSIDY_CAP", "subsidies are at most 25% of the giver's income: "
                                    "{limit} for {state}, {given} already given")
ONE_RECIPIENT = Reason("ONE_RECIPIENT", "subsidies go to a single state at a time: {state} "
                                        "subsidises {recipient} this turn")
# politics
NO_SHARED_WORD = Reason("NO_SHARED_WORD", "{old} and {new} share no word, so {new} is no "
                                          "reform of {old}")
SAME_GOVERNMENT = Reason("SAME_GOVERNMENT", "{state}'s government is already {government}")
TO_TRIBAL = Reason("TO_TRIBAL", "no state becomes Tribal")
TRIBAL_GOVERNMENT = Reason("TRIBAL_GOVERNMENT", "a Tribal state leaves its government only by "
                                                "civilizing")
NOT_SATELLITE = Reason("NOT_SATELLITE", "{state} is not a satellite of {overlord}")
NOT_UNION = Reason("NOT_UNION", "{state} is not in personal union with {partner}")
ALREADY_STATE = Reason("ALREADY_STATE", "{what} is already {state}'s")
CAPITAL = Reason("CAPITAL", "{province} is {state}'s capital; name another capital first")
IN_ALLIANCE = Reason("IN_ALLIANCE", "{state} is already in {alliance}; a state belongs to one "
                                    "alliance")
NO_ALLIANCE = Reason("NO_ALLIANCE", "{state} is in no alliance")
ALREADY_SATELLITE = Reason("ALREADY_SATELLITE", "{state} is already a satellite of {overlord}")
BAD_CHOICE = Reason("BAD_CHOICE", "write {choices} in the 'choice' column")
# war
INTERREGNUM = Reason("INTERREGNUM", "{state} is in an interregnum: it may not declare war this "
                                    "turn")
ONE_WAR = Reason("ONE_WAR", "only one war may be started per continent per alliance: {who} "
                            "started one on {continent} this turn (order row {row})")
NO_LAND_THERE = Reason("NO_LAND_THERE", "{state} holds no province on {continent}")
FRIEND = Reason("FRIEND", "{state} is {how} of {actor}")
NO_UPRISING = Reason("NO_UPRISING", "{state} faces no independence war this turn")
NO_SUCH_WAR = Reason("NO_SUCH_WAR", "{state} and {enemy} fight no war against each other this "
                                    "turn")
NOT_A_CHOICE = Reason("NOT_A_CHOICE", "'{entry}' is no province: write provinces, 'STATE as "
                                      "satellite' or 'nothing'")

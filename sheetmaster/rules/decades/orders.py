"""The orders a state can give (and the GM's own), and the Orders tab's columns for them.

The 'player' column names the state that acts: a player's own state, or a state in personal
union with it (§10 "This gives the player full control over that state, which however
remains a separate state"). Non-player states are ordered by the GM, in the GM orders tab.
"""

from __future__ import annotations

from sheetmaster.kit import Column, Field, Kind, OrderKind

# spending (§3, §4, §5, §6, §16)
MILITARY, STABILITY, CIVILIZE = "invest military", "raise stability", "civilize"
CONVERT_RELIGION, CONVERT_CULTURE, COLONIZE = "convert religion", "convert culture", "colonize"
SUBSIDY = "subsidy"
# politics (§2b, §5, §6, §10, §12-§14)
REFORM, SATELLITE_GOVERNMENT = "reform government", "set satellite government"
CHANGE_RELIGION, CHANGE_CULTURE = "change religion", "change culture"
CEDE, ACCEPT_PROVINCE, INDEPENDENCE = "cede province", "accept province", "grant independence"
ALLY, LEAVE_ALLIANCE = "ally", "leave alliance"
BECOME_SATELLITE, ACCEPT_SATELLITE = "become satellite", "accept satellite"
RELEASE_SATELLITE, ANNEX_SATELLITE, ANNEX_UNION = ("release satellite", "annex satellite",
                                                   "annex union")
AT_ONE = "at happiness 1"
# war (§15)
DECLARE_WAR, ANNEX_LIST = "declare war", "annex if victorious"
# the GM's (events and judgement calls)
STABILITY_HIT, HAPPINESS_HIT = "stability hit", "happiness hit"
GAIN_MODIFIER, LOSE_MODIFIER = "gain modifier", "lose modifier"
SATELLITE_EVENT, REBEL_STRENGTH = "satellite by event", "rebel strength"

SPENDING = (MILITARY, STABILITY, CONVERT_RELIGION, CONVERT_CULTURE, COLONIZE, CIVILIZE)
POLITICS = (REFORM, SATELLITE_GOVERNMENT, CHANGE_RELIGION, CHANGE_CULTURE, CEDE,
            ACCEPT_PROVINCE, INDEPENDENCE, ALLY, LEAVE_ALLIANCE, BECOME_SATELLITE,
            ACCEPT_SATELLITE, RELEASE_SATELLITE, ANNEX_SATELLITE, ANNEX_UNION, AT_ONE,
            STABILITY_HIT, HAPPINESS_HIT, GAIN_MODIFIER, LOSE_MODIFIER, SATELLITE_EVENT)
WARS = (DECLARE_WAR, ANNEX_LIST, REBEL_STRENGTH)

ORDER_COLUMNS = (
    Column("amount", Kind.RAW, "economic value paid (may have a fraction, like 2.5), or the "
                               "rebels' strength"),
    Column("province", Kind.RAW, "the province the order is about (annex if victorious: "
                                 "the provinces, in the order they are to be taken)"),
    Column("state", Kind.RAW, "the other state: the target, the recipient, the partner"),
    Column("government", Kind.RAW, "a government (a row of the Governments tab)"),
    Column("religion", Kind.RAW, "a religion"),
    Column("culture", Kind.RAW, "a culture"),
    Column("alliance", Kind.RAW, "an alliance's name"),
    Column("continent", Kind.RAW, "the continent a war is fought on (blank: where the "
                                  "target's capital lies)"),
    Column("choice", Kind.RAW, "revolution or civil war; a modifier; which happiness"),
)

AMOUNT = Field("amount", decimal=True)
PROVINCE = Field("province", names="province")
STATE = Field("state", names="player")


def _kind(name: str, fields: tuple[Field, ...], text: str, example: dict,
          aliases: tuple[str, ...] = (), *, repeatable: bool = False,
          gm_only: bool = False) -> OrderKind:
    return OrderKind(name, fields, text, {"player": "Castile", **example}, aliases, repeatable,
                     gm_only=gm_only)


ORDER_KINDS = (
    _kind(MILITARY, (AMOUNT,), "Invest economic value in the military: 10 gives 10 military "
          "strength for this turn's wars (Tribal x5, at most 60; -25% a technology behind).",
          {"amount": 10}, ("military",), repeatable=True),
    _kind(STABILITY, (), "Buy one level of stability (the 'stability cost' setting).", {},
          ("invest stability",), repeatable=True),
    _kind(CONVERT_RELIGION, (PROVINCE, AMOUNT), "Pay toward converting a province to your "
          "religion; once its full value is paid, a 1 in 20 chance.",
          {"province": "Sevilla", "amount": 2}, repeatable=True),
    _kind(CONVERT_CULTURE, (PROVINCE, AMOUNT), "Pay toward converting a province to your "
          "culture; once its full value is paid, a 1 in 40 chance.",
          {"province": "Sevilla", "amount": 2}, repeatable=True),
    _kind(COLONIZE, (PROVINCE, AMOUNT), "Pay toward colonizing an unsettled province (red "
          "dot); settled once its map value is paid.", {"province": "Tlaxcala", "amount": 3},
          ("colonise",), repeatable=True),
    _kind(CIVILIZE, (), "Tribal states: invest half this turn's income for a 1 in 50 chance "
          "of becoming civilized.", {}),
    _kind(SUBSIDY, (STATE, AMOUNT), "Give another state up to 25% of your income (one state "
          "a turn).", {"state": "Aragon", "amount": 3}, ("give subsidy",), repeatable=True),
    _kind(REFORM, (Field("government", names="government"),), "Reform to a government "
          "sharing a word with yours (a stability and a happiness hit).",
          {"government": "Absolute Monarchy"}, ("reform",), repeatable=True),
    _kind(SATELLITE_GOVERNMENT, (STATE, Field("government", names="government")),
          "Overlords: change a satellite's government.",
          {"state": "Navarre", "government": "Feudal Monarchy"}),
    _kind(CHANGE_RELIGION, (Field("religion", names="religion"),), "Change the state "
          "religion (a stability and a happiness hit unless it is already the majority).",
          {"religion": "Reformed"}),
    _kind(CHANGE_CULTURE, (Field("culture", names="culture"),), "Change the state culture "
          "(hits unless it is already the majority).", {"culture": "Iberian"}),
    _kind(CEDE, (PROVINCE, STATE), "Cede a province to another state, which must post "
          "'accept province' this turn.", {"province": "Rosello", "state": "Aragon"},
          repeatable=True),
    _kind(ACCEPT_PROVINCE, (PROVINCE,), "Accept a province another state cedes to you this "
          "turn.", {"province": "Rosello"}, repeatable=True),
    _kind(INDEPENDENCE, (PROVINCE,), "Grant a province full independence: it becomes a "
          "non-player state.", {"province": "Rosello"}, repeatable=True),
    _kind(ALLY, (STATE, Field("alliance", required=False)), "Form an alliance with a state "
          "(it must post 'ally' naming you this turn), or bring it into yours.",
          {"state": "Aragon", "alliance": "Iberian League"}, ("form alliance",)),
    _kind(LEAVE_ALLIANCE, (), "Leave your alliance.", {}),
    _kind(BECOME_SATELLITE, (STATE,), "Become a satellite of a state (it must post 'accept "
          "satellite' naming you this turn).", {"state": "Castile"}),
    _kind(ACCEPT_SATELLITE, (STATE,), "Accept a state that posts 'become satellite' as your "
          "satellite.", {"state": "Navarre"}),
    _kind(RELEASE_SATELLITE, (STATE,), "Release a satellite of yours.", {"state": "Navarre"}),
    _kind(ANNEX_SATELLITE, (STATE,), "Annex a satellite of yours (a stability and a "
          "happiness hit).", {"state": "Navarre"}),
    _kind(ANNEX_UNION, (STATE,), "Annex a state in personal union with yours (a stability "
          "and a happiness hit).", {"state": "Portugal"}),
    _kind(AT_ONE, (Field("choice"),), "What happens when your political happiness hits 1: "
          "revolution or civil war (kept until changed).", {"choice": "civil war"},
          ("at happiness one",)),
    _kind(DECLARE_WAR, (STATE, Field("continent", names="continent", required=False)),
          "Declare war on a state (one war per continent per alliance a turn).",
          {"state": "Granada", "continent": "Europa"}, ("war",)),
    _kind(ANNEX_LIST, (STATE, Field("province")), "Say with the war what you annex if you "
          "win it against 'state' (attacker, defender or ally): provinces in the order to take "
          "them, 'STATE as satellite' or 'nothing', in 'province'. Taken as the war is won, "
          "with no decision to answer next turn.",
          {"state": "Granada", "province": "Granada"}, ("annex list",), repeatable=True),
    _kind(STABILITY_HIT, (Field("amount", count=True, required=False),), "GM: a stability "
          "hit by event (amount: how many, default 1).", {"player": "Aragon"},
          repeatable=True, gm_only=True),
    _kind(HAPPINESS_HIT, (Field("choice", required=False),), "GM: a happiness hit by event "
          "(choice: political (blank), national or religious).", {"player": "Aragon"},
          repeatable=True, gm_only=True),
    _kind(GAIN_MODIFIER, (Field("choice"),), "GM: the state gains Economic Crisis or "
          "Pestilence by event.", {"player": "Aragon", "choice": "Pestilence"}, gm_only=True),
    _kind(LOSE_MODIFIER, (Field("choice"),), "GM: the state loses Economic Crisis or "
          "Pestilence by event.", {"player": "Aragon", "choice": "Pestilence"}, gm_only=True),
    _kind(SATELLITE_EVENT, (STATE,), "GM: the state becomes a satellite of 'state' by event.",
          {"player": "Navarre", "state": "Castile"}, gm_only=True),
    _kind(REBEL_STRENGTH, (AMOUNT,), "GM: the rebels' strength in the state's independence "
          "war this turn (default: the rebel provinces' value).",
          {"player": "Aragon", "amount": 6}, gm_only=True),
)

"""The orders a claims player can give, and the Orders tab's columns for them."""

from __future__ import annotations

from sheetmaster.kit import Column, Field, Kind, OrderKind

CLAIM_WAR = "claim war territory"
CLAIM_NEUTRAL = "claim neutral territory"
PROPOSE = "propose transfer"
ACCEPT = "accept transfer"
COMMIT = "commit dice"
BUILD = "build armies"

ORDER_COLUMNS = (
    Column("territory", Kind.RAW, "the territory an order is about"),
    Column("amount", Kind.RAW, "how many: dice, armies, or units given"),
    Column("item", Kind.RAW, "what is given: gold, iron, rubber, coal, oil, uranium, armies, "
                             "territory, or a special resource"),
    Column("from", Kind.RAW, "who gives (blank = you)"),
    Column("to", Kind.RAW, "who receives"),
    Column("deal", Kind.RAW, "a short name tying a transfer's rows and its acceptances together"),
    Column("war", Kind.RAW, "the war your dice are for"),
    Column("side", Kind.RAW, "the side of that war you fight for"),
)

ORDER_KINDS = (
    OrderKind(
        CLAIM_WAR,
        (Field("territory", names="territory"),),
        "Buy a territory of a player your side beat in a war last turn. "
        "Costs (your territories / 4) gold, rounded down.",
        {"player": "Avalon", "territory": "Lyonesse"},
        aliases=("war claim",),
    ),
    OrderKind(
        CLAIM_NEUTRAL,
        (Field("territory", names="territory"),),
        "Buy a neutral territory that borders, or has a waterway to, one you own (claims can "
        "chain). Costs (your territories / 2) gold, rounded down.",
        {"player": "Avalon", "territory": "Tintagel"},
        aliases=("neutral claim", "claim territory"),
    ),
    OrderKind(
        PROPOSE,
        (Field("deal"), Field("to", names="player"), Field("item", names="item"),
         Field("from", names="player", required=False), Field("amount", count=True, required=False),
         Field("territory", names="territory", required=False)),
        "One row per item of a deal: who gives (from, blank = you) what (item and amount, or "
        "item 'territory' and the territory) to whom. All rows share the deal's name. It goes "
        "through only when every other player in it posts 'accept transfer' with that name.",
        {"player": "Avalon", "deal": "avalon-bretagne-1", "item": "gold", "amount": 5,
         "to": "Bretagne"},
        aliases=("transfer", "propose"),
    ),
    OrderKind(
        ACCEPT,
        (Field("deal"),),
        "Accept a deal another player proposed this turn, by its name.",
        {"player": "Bretagne", "deal": "avalon-bretagne-1"},
        aliases=("accept",),
    ),
    OrderKind(
        COMMIT,
        (Field("amount", count=True), Field("war", names="war", required=False),
         Field("side", required=False)),
        "Roll this many dice (sheetmaster rolls them) for a side of a war. Only your first "
        "(armies) dice of the turn count.",
        {"player": "Avalon", "amount": 3, "war": "Channel War", "side": "Britons"},
        aliases=("dice", "roll dice", "attack"),
    ),
    OrderKind(
        BUILD,
        (Field("amount", count=True),),
        "Build this many armies at 5 gold each (as many as your gold covers). Not in exile.",
        {"player": "Avalon", "amount": 2},
        aliases=("build", "build army"),
    ),
)

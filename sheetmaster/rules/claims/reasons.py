"""Why a claims order was rejected or only partly applied."""

from sheetmaster.kit import IN_EXILE, Reason

__all__ = ["IN_EXILE"]

ALREADY_YOURS = Reason("ALREADY_YOURS", "you already own {territory}")
NOT_NEUTRAL = Reason("NOT_NEUTRAL", "{territory} is not neutral: {owner} owns it")
IS_NEUTRAL = Reason("IS_NEUTRAL",
                    "{territory} is neutral: claim it with 'claim neutral territory' instead")
NOT_ELIGIBLE = Reason(
    "NOT_ELIGIBLE",
    "{territory} belongs to {owner}, who was not on a side that lost a war to you last turn",
)
NOT_CONNECTED = Reason(
    "NOT_CONNECTED",
    "{territory} does not border, and has no waterway to, any territory you own",
)
GIVE_TO_SELF = Reason("GIVE_TO_SELF", "'from' and 'to' are the same player")
BELOW_ZERO = Reason(
    "BELOW_ZERO",
    "cancelled: {player} would have {held} (below 0), so nothing moved",
)
NOT_OWNER = Reason(
    "NOT_OWNER",
    "cancelled: {player} does not own {territory}, so nothing moved",
)
TERRITORY_TWICE = Reason("TERRITORY_TWICE", "cancelled: {territory} is given twice in this deal")
NEEDS_TERRITORY = Reason("NEEDS_TERRITORY", "giving a territory needs the 'territory' column")
NEEDS_AMOUNT = Reason("NEEDS_AMOUNT", "giving {item} needs the 'amount' column (1 or more)")
UNKNOWN_WAR = Reason("UNKNOWN_WAR", "there is no war named {war} in the Wars tab")
WAR_ENDED = Reason("WAR_ENDED", "war {war} has ended")
UNKNOWN_SIDE = Reason("UNKNOWN_SIDE", "war {war} has no side named {side} (sides: {sides})")
NAME_SIDE = Reason("NAME_SIDE", "you are not listed in war {war}: name the side you fight for")
OTHER_SIDE = Reason("OTHER_SIDE", "you fight for {listed} in war {war}, not for {side}")
NO_DICE_LEFT = Reason(
    "NO_DICE_LEFT",
    "no valid dice left: you have {armies}, and each army gives one valid die a turn (the "
    "first dice you commit)",
)
SOME_DICE = Reason(
    "SOME_DICE",
    "only {valid} of {asked} dice count: you have {armies}, and each army gives one valid die "
    "a turn (the first dice you commit)",
)
TRAINING = Reason(
    "TRAINING",
    "no war named and none obvious: your armies held training exercises, {dice} wasted",
)
SOME_BUILT = Reason("SOME_BUILT", "built {built} of {asked}: each army costs 5 gold")
NONE_BUILT = Reason("NONE_BUILT", "not enough gold: an army costs 5 gold, you have {gold}")

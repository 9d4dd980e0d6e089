"""The clans resolution phases: the season's start, each player's turn, the season's end."""

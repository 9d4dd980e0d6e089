"""1800's phases, one module per step of the game."""

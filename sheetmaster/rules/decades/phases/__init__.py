"""The decades turn's phases, one module each."""

"""The claims resolution phases A to G, one module per phase."""

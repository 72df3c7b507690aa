"""An example package built with dynac's build integration (dynac.build)."""

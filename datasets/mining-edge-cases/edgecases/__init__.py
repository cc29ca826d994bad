"""Each function here is one case for relevant-test mining."""

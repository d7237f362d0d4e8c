"""The procedure's steps, in the order a pass runs them."""

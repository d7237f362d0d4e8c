"""The procedure's stages, one module each, in the order they run."""

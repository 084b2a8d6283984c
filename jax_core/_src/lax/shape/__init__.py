"""Shape primitives (broadcast, reshape, transpose, squeeze, concatenate, pad, rev, iota) and their compositions."""

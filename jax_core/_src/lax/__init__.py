"""lax: primitives and their rules, one block per primitive, grouped by op family."""

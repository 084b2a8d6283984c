"""Special-function primitives (igamma, betainc, polygamma, zeta, Bessel) and the lax programs they lower to."""

"""Contraction (dot_general) and the LAPACK decompositions (cholesky, lu, qr, eigh, svd, eig, triangular_solve)."""

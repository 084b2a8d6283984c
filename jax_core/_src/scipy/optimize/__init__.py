"""``jax_core.scipy.optimize``'s implementation: ``minimize`` (BFGS and the experimental L-BFGS)
on the strong-Wolfe line search JAX uses."""

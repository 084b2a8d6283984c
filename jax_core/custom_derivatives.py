"""Custom differentiation rules (``jax.custom_derivatives``)."""

from jax_core._src.transforms.ad_api import closure_convert as closure_convert
from jax_core._src.transforms.custom_derivatives import custom_jvp as custom_jvp
from jax_core._src.transforms.custom_derivatives import custom_jvp_call_p as custom_jvp_call_p
from jax_core._src.transforms.custom_derivatives import custom_vjp as custom_vjp
from jax_core._src.transforms.custom_derivatives import custom_vjp_call_p as custom_vjp_call_p
from jax_core._src.transforms.custom_gradient import custom_gradient as custom_gradient
from jax_core._src.interpreters.ad_util import SymbolicZero as SymbolicZero
from jax_core._src.transforms.custom_derivatives import CustomVJPPrimal as CustomVJPPrimal
from jax_core._src.transforms.custom_derivatives import custom_vjp_primal_tree_values as custom_vjp_primal_tree_values
from jax_core._src.transforms.custom_derivatives import zero_from_primal as zero_from_primal
from jax_core._src.transforms.linear_call import linear_call as linear_call
from jax_core._src.transforms.remat_opt import remat_opt_p as remat_opt_p

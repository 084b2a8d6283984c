"""Rematerialisation tools (``jax.ad_checkpoint``): ``checkpoint``, ``checkpoint_name``,
policies and their answers (``Saveable``, ``Recompute``, ``Offloadable``), and what reverse mode
saves (``print_saved_residuals``)."""

from jax_core._src.interpreters.partial_eval import Offloadable as Offloadable
from jax_core._src.interpreters.partial_eval import Recompute as Recompute
from jax_core._src.interpreters.partial_eval import Saveable as Saveable
from jax_core._src.lax.ad_ops import checkpoint_name as checkpoint_name
from jax_core._src.lax.ad_ops import checkpoint_name_fwd as checkpoint_name_fwd
from jax_core._src.lax.ad_ops import name_p as name_p
from jax_core._src.transforms.checkpoint import checkpoint as checkpoint
from jax_core._src.transforms.checkpoint import checkpoint_policies as checkpoint_policies
from jax_core._src.transforms.checkpoint import print_saved_residuals as print_saved_residuals
from jax_core._src.transforms.checkpoint import remat as remat
from jax_core._src.transforms.checkpoint import saved_residuals as saved_residuals

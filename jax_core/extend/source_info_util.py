"""``jax.extend.source_info_util``: name stacks and source information of staged operations.

``extend_name_stack``/``transform_name_stack`` name the operations staged inside a block (they
show in lowered locations as ``outer/jvp(inner)``); ``current()`` captures where the user is;
``user_context`` attributes staged operations, and errors, to a given traceback.
"""

from jax_core._src.core.source_info_api import NameStack as NameStack
from jax_core._src.core.source_info_api import SourceInfo as SourceInfo
from jax_core._src.core.source_info_api import current as current
from jax_core._src.core.source_info_api import current_name_stack as current_name_stack
from jax_core._src.core.source_info_api import extend_name_stack as extend_name_stack
from jax_core._src.core.source_info_api import new_name_stack as new_name_stack
from jax_core._src.core.source_info_api import new_source_info as new_source_info
from jax_core._src.core.source_info_api import register_exclusion as register_exclusion
from jax_core._src.core.source_info_api import reset_name_stack as reset_name_stack
from jax_core._src.core.source_info_api import set_name_stack as set_name_stack
from jax_core._src.core.source_info_api import summarize as summarize
from jax_core._src.core.source_info_api import transform_name_stack as transform_name_stack
from jax_core._src.core.source_info_api import user_context as user_context

__all__ = [
    "NameStack",
    "SourceInfo",
    "current",
    "current_name_stack",
    "extend_name_stack",
    "new_name_stack",
    "new_source_info",
    "register_exclusion",
    "reset_name_stack",
    "set_name_stack",
    "summarize",
    "transform_name_stack",
    "user_context",
]

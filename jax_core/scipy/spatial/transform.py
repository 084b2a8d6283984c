"""3-d rotations, as ``jax.scipy.spatial.transform``: ``Rotation`` and ``Slerp``."""

from jax_core._src.scipy.spatial_transform import Rotation as Rotation
from jax_core._src.scipy.spatial_transform import Slerp as Slerp

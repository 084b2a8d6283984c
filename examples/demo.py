"""The main job of jax_core, shown end to end (placeholder: the lead writes the real demo)."""

print("demo not written yet")

"""The foreign function interface (``jax.ffi``): calling C++ handlers written against XLA's FFI.

``targets.py`` registers handlers and types with XLA (and finds jaxlib's headers),
``lowering.py`` builds lowering rules calling a target, ``call.py`` holds ``ffi_call`` and its
primitive, ``attributes.py`` turns keyword arguments into the call's attributes.
"""

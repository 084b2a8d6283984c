"""``jax_core.random`` internals: typed PRNG keys (JEP 9263), threefry2x32 and the samplers.

How typed keys work (the design, as JAX's):

* **The key dtype.** ``KeyTy`` (``keys.py``) is an extended dtype
  (``dtypes.ExtendedDType``) named ``key<fry>`` for the threefry2x32 implementation;
  ``dtypes.issubdtype(k.dtype, dtypes.prng_key)`` and ``dtypes.extended`` hold. A key
  array's abstract value is an ordinary ``ShapedArray`` with that dtype, and its shape
  excludes the key data: one key is ``key<fry>[]`` overlaying ``uint32[2]``.
* **Concrete key arrays.** ``PRNGKeyArray`` is an ``Array`` holding the ``uint32`` data
  array (shape ``(*shape, 2)``) and the implementation. It has no arithmetic; indexing,
  reshaping, iteration and ``len`` act on keys.
* **Primitives.** ``random_seed``, ``random_wrap``, ``random_unwrap``, ``random_bits``,
  ``random_split`` and ``random_fold_in`` (``primitives.py``) take and return key avals,
  each with abstract evaluation, lowering, zero jvp and a batching rule, so keys work
  under ``jit``, ``vmap`` and ``grad``.
* **Lowering.** Keys lower to their physical data: the dtype's rules (``KeyTyRules``)
  give the physical aval used for MLIR types, the physical constant, a result handler
  that wraps output buffers back into ``PRNGKeyArray``, and lowering overrides for the
  structural primitives (slice, gather, reshape, transpose, broadcast, select, eq) that
  carry the trailing data axis along (``physical.py``).
* **threefry2x32** (``threefry.py``) is written with jax_core's integer lax ops and traced
  into the lowering of the key primitives, so XLA sees plain ``uint32`` ops. Streams are
  bit-identical to JAX 0.12 (``jax_threefry_partitionable=True``, its default).
* **rbg and unsafe_rbg** (``rbg.py``): keys of four words whose bits come from XLA's
  ``RngBitGenerator``; ``rbg`` splits and folds in with threefry2x32, ``unsafe_rbg`` with the
  generator itself (``random.key(0, impl="rbg")``), as JAX's.
* **Samplers** (``samplers.py``, ``samplers_extra.py``) are JAX's algorithms, op for op.
"""

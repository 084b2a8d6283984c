"""What the CPU target XLA compiles for can and cannot do, as the test suite needs to know it.

Under ``XLA_FLAGS=--xla_cpu_max_isa=SSE4_2`` (how the suite is run to see an older CPU's results)
LLVM lowers float16 conversions to library calls (``__extendhfsf2``, ``__truncsfhf2``) that XLA's
JIT does not provide, and compiling any float16 arithmetic fails with "Failed to materialize
symbols". Real JAX 0.12 fails identically (the live oracle compares the two outcomes), so a test
that meets this error is skipped, not failed (tests/conftest.py); nothing else is.
"""

from __future__ import annotations

F16_CODEGEN_REASON = (
    "XLA cannot compile float16 for this CPU target (no F16C); real JAX fails the same way"
)


def is_f16_codegen_failure(error: str | None, message: str | None) -> bool:
    """Whether an exception (class name and message) is XLA's float16 codegen failure."""
    return error == "JaxRuntimeError" and "Failed to materialize symbols" in (message or "")


def raised_f16_codegen_failure(exc: BaseException | None) -> bool:
    """Whether ``exc`` or an exception it was raised from is XLA's float16 codegen failure."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if is_f16_codegen_failure(type(exc).__name__, str(exc)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False

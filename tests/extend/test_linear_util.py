"""``jax_core.extend.linear_util`` (transformations of ``WrappedFun``s, stores, ``cache``) and
``jax_core.extend.source_info_util`` (name stacks, source info, ``user_context``), compared live
with real JAX where the results are exact."""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Generator
from typing import Any

import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.extend import linear_util as lu
from jax_core.extend import source_info_util as si
from tests.oracle.client import Outcome, assert_same, here, live_fixture, program_call

_PROGRAM = """
import importlib, warnings
lu = importlib.import_module(jax.__name__ + '.extend.linear_util')
si = importlib.import_module(jax.__name__ + '.extend.source_info_util')

def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return fn(*args, **kwargs)

def wrap(f, params=None):
    return quiet(lu.wrap_init, f, params)

def add(x, y=1):
    return x + y

@lu.transformation_with_aux
def scaled(factor, *args):
    out = yield tuple(a * factor for a in args), {}
    yield out + 100, ('aux', factor)

@lu.transformation
def times_ten(offset, *args, **kwargs):
    out = yield args, kwargs
    yield out * 10 + offset

def swap(f, store, *args):
    out = f(*args[::-1])
    store.store(len(args))
    return out

def minus(f, k, *args):
    return f(*args) - k

def stacked():
    w, aux = scaled(wrap(add, {'y': 5}), 2)
    w = times_ten(w, 3)
    return w.call_wrapped(4), aux(), w.params, len(w.transforms), w.__name__

def error(fn):
    try:
        fn()
    except Exception as e:
        return [type(e).__name__, str(e)]
    return 'no error'

def cached_calls():
    calls = []
    run = lu.cache(lambda fun, k: (calls.append(k), fun.call_wrapped(k))[1])
    base = wrap(add)
    first = run(base, 1)
    second = run(wrap(add), 1)
    third = run(wrap(add), 2)
    return first, second, third, len(calls)

def cached_aux():
    run = lu.cache(lambda fun, k: fun.call_wrapped(k))
    f1, aux1 = lu.transformation_with_aux2(swap, wrap(add))()
    r1 = run(f1, 7)
    return r1, aux1()

def name_stacks():
    out = []
    with si.extend_name_stack('outer') as s:
        out.append(str(s))
        with si.transform_name_stack('jvp') as t:
            out.append(str(t))
            out.append(str(si.current_name_stack()))
            with si.extend_name_stack('inner'):
                out.append(str(si.current_name_stack()))
                with si.reset_name_stack():
                    out.append(str(si.current_name_stack()))
                with si.set_name_stack(si.new_name_stack('a').transform('vmap')):
                    out.append(str(si.current_name_stack()))
    out.append(str(si.current_name_stack()))
    return out

def warned():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        lu.wrap_init(add)
    return [c.category.__name__ for c in caught]

@si.extend_name_stack('decorated')
def named():
    return str(si.current_name_stack())
"""

CASES = [
    "stacked()",
    "wrap(add, {'y': 2}).call_wrapped(1)",
    "wrap(add) == wrap(add)",
    "hash(wrap(add)) == hash(wrap(add))",
    "wrap(add) == wrap(add, {'y': 2})",
    "lu.transformation2(minus, wrap(add), 4)().call_wrapped(10)",
    "(lambda fa: (fa[0].call_wrapped(1, 2), fa[1]()))(lu.transformation_with_aux2(swap, wrap(lambda a, b: a - b))())",
    "error(lambda: scaled(wrap(add), 2)[1]())",
    "error(lambda: lu.merge_linear_aux(scaled(wrap(add), 2)[1], scaled(wrap(add), 3)[1]))",
    "(lambda f1, f2: (f1[0].call_wrapped(1), lu.merge_linear_aux(f1[1], f2[1])))(scaled(wrap(add), 2), scaled(wrap(add), 3))",
    "(lambda f1, f2: (f2[0].call_wrapped(1), lu.merge_linear_aux(f1[1], f2[1])))(scaled(wrap(add), 2), scaled(wrap(add), 3))",
    "(lambda f1, f2: (f1[0].call_wrapped(1), f2[0].call_wrapped(1), error(lambda: lu.merge_linear_aux(f1[1], f2[1]))))(scaled(wrap(add), 2), scaled(wrap(add), 3))",
    "(lambda fa: (fa[0].call_wrapped(1), error(lambda: fa[0].call_wrapped(1))))(scaled(wrap(add), 2))",
    "(lambda fa: (fa[0].call_wrapped(1, 2), fa[0].call_wrapped(1, 2), fa[1]()))(lu.transformation_with_aux2(swap, wrap(add), use_eq_store=True)())",
    "(lambda fa: (fa[0].call_wrapped(1, 2), error(lambda: fa[0].call_wrapped(1, 2, 3))))(lu.transformation_with_aux2(swap, wrap(lambda *a: sum(a)), use_eq_store=True)())",
    "cached_calls()",
    "cached_aux()",
    "issubclass(lu.StoreException, Exception)",
    "warned()",
    "name_stacks()",
    "named()",
    "str(si.new_name_stack('a').extend('b').transform('jvp').extend('c').transform('vmap'))",
    "str(si.new_name_stack().transform('jvp'))",
    "str(si.new_name_stack())",
    "len(si.new_name_stack('a').extend('b').transform('t'))",
    "str(si.new_name_stack('a').extend('b').transform('t')[1:])",
    "str(si.new_name_stack('a') + si.new_name_stack('b').transform('t'))",
    "str(si.new_source_info().name_stack)",
    "si.new_source_info().traceback is None",
    "si.summarize(si.new_source_info())",
    "si.summarize(si.current())",
    "str(si.current().name_stack)",
    "str(si.current().replace(name_stack=si.new_name_stack('x')).name_stack)",
]

CALLS = {case: program_call(_PROGRAM, case) for case in CASES}
live = live_fixture(list(CALLS.values()))


@pytest.mark.parametrize("case", CASES)
def test_matches_jax(case: str, live: dict[str, Outcome]) -> None:
    ours = here(CALLS[case])
    assert ours.leaves is not None, ours.describe()
    assert_same(ours, live[CALLS[case].expr], case)


# -- linear_util without the oracle ----------------------------------------------------------------


def _dbg() -> Any:
    from jax_core._src.extend.linear_util import DebugInfo

    return DebugInfo("test", "f", None, None)


def test_wrap_init_without_debug_info_warns() -> None:
    def f(x: int) -> int:
        return x

    with pytest.warns(DeprecationWarning, match="without debug_info"):
        wrapped = lu.wrap_init(f)
    assert wrapped.debug_info.traced_for == "missing_debug_info"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lu.wrap_init(f, debug_info=_dbg()).call_wrapped(3) == 3


def test_generator_transformations_compose_in_order() -> None:
    order: list[str] = []

    def make(tag: str) -> Any:
        def gen(*args: int) -> Generator[Any, Any, Any]:
            order.append(f"{tag} in")
            out = yield args, {}
            order.append(f"{tag} out")
            yield out

        return lu.transformation(gen)

    def f(x: int) -> int:
        order.append("f")
        return x

    wrapped = make("b")(make("a")(lu.wrap_init(f, debug_info=_dbg())))
    assert wrapped.call_wrapped(1) == 1
    assert order == ["b in", "a in", "f", "a out", "b out"]


def test_cache_populates_stores_on_hit() -> None:
    calls: list[int] = []

    def f(x: int) -> int:
        return x + 1

    def record(g: Any, store: Any, x: int) -> int:
        store.store(x * 2)
        return int(g(x))

    def run_impl(fun: lu.WrappedFun, x: int) -> int:
        calls.append(x)
        return int(fun.call_wrapped(x))

    run = lu.cache(run_impl)
    base = lu.wrap_init(f, debug_info=_dbg())
    f1, aux1 = lu.transformation_with_aux2(record, base)()
    f2, aux2 = lu.transformation_with_aux2(record, base)()
    assert f1 == f2 and hash(f1) == hash(f2)  # the same function and transformation
    assert run(f1, 3) == 4 and aux1() == 6
    # A fresh wrapper with the same transformation hits the cache and gets the stored aux.
    f3, aux3 = lu.transformation_with_aux2(record, base)()
    assert run(f3, 3) == 4 and aux3() == 6
    assert calls == [3]
    run.cache_clear()
    f4, _ = lu.transformation_with_aux2(record, base)()
    run(f4, 3)
    assert calls == [3, 3]
    del f2, aux2


def test_store_exceptions() -> None:
    def f(x: int) -> int:
        return x

    def gen(*args: int) -> Generator[Any, Any, Any]:
        out = yield args, {}
        yield out, "aux"

    wrapped, aux = lu.transformation_with_aux(gen)(lu.wrap_init(f, debug_info=_dbg()))
    with pytest.raises(lu.StoreException, match="Store empty"):
        aux()
    wrapped.call_wrapped(1)
    assert aux() == "aux"
    with pytest.raises(lu.StoreException, match="Store occupied"):
        wrapped.call_wrapped(1)


def test_linear_util_signatures() -> None:
    names = {
        "Callable", "StoreException", "WrappedFun", "cache", "merge_linear_aux", "transformation",
        "transformation2", "transformation_with_aux", "transformation_with_aux2", "wrap_init",
    }  # fmt: skip
    assert names <= set(dir(lu))
    assert list(inspect.signature(lu.wrap_init).parameters) == ["f", "params", "debug_info"]
    assert list(inspect.signature(lu.transformation).parameters) == [
        "gen",
        "fun",
        "gen_static_args",
    ]
    assert list(inspect.signature(lu.transformation_with_aux2).parameters) == [
        "gen", "fun", "gen_static_args", "use_eq_store", "unk_names",
    ]  # fmt: skip
    assert list(inspect.signature(lu.cache).parameters) == ["call", "explain"]


# -- source_info_util without the oracle -----------------------------------------------------------


def test_name_stack_reaches_lowered_locations() -> None:
    def f(x: jax.Array) -> jax.Array:
        with si.extend_name_stack("foo"), si.transform_name_stack("jvp"):
            return jnp.sin(x)

    text = jax.jit(f).lower(jnp.float32(1.0)).as_text(debug_info=True)
    assert 'foo/jvp()/sin"' in text


def test_named_scope_shows_in_current_name_stack() -> None:
    with si.extend_name_stack("outer"), jax.named_scope("scope"):
        assert str(si.current_name_stack()) == "outer/scope"
    assert str(si.current_name_stack()) == ""


def _capture() -> Any:
    return si.current().traceback


def test_summarize_names_this_file() -> None:
    info = si.current()
    line = inspect.currentframe().f_lineno - 1  # type: ignore[union-attr]  # pyright: ignore[reportOptionalMemberAccess]
    assert si.summarize(info).startswith(f"{__file__}:{line}:")
    assert si.summarize(info).endswith("(test_summarize_names_this_file)")


def test_register_exclusion_skips_frames() -> None:
    info = si.current()
    si.register_exclusion(__file__)
    try:
        assert __file__ not in si.summarize(info, num_frames=5)
    finally:
        from jax_core._src.core import source_info_api

        source_info_api._exclude_paths.remove(__file__)  # pyright: ignore[reportPrivateUsage]
        source_info_api._exclude_regex.cache_clear()  # pyright: ignore[reportPrivateUsage]
        source_info_api.is_user_filename.cache_clear()
    assert __file__ in si.summarize(info)


def test_user_context_attributes_staged_ops_and_errors() -> None:
    tb = _capture()
    capture_line = _capture.__code__.co_firstlineno + 1

    def f(x: jax.Array) -> jax.Array:
        with si.user_context(tb):
            return jnp.sin(x)

    jaxpr: Any = jax.make_jaxpr(f)(jnp.float32(1.0))
    assert jaxpr.jaxpr.eqns[0].source_info.lineno == capture_line
    with pytest.raises(ValueError, match="boom") as caught, si.user_context(tb):
        raise ValueError("boom")
    cause = caught.value.__cause__
    assert type(cause).__name__ == "JaxStackTraceBeforeTransformation"
    assert str(cause).startswith("ValueError: boom")
    assert cause is not None
    files: list[str] = []
    frame = cause.__traceback__
    while frame is not None:
        files.append(frame.tb_frame.f_code.co_filename)
        frame = frame.tb_next
    assert files[-1] == __file__  # innermost: where the traceback was captured
    assert not any("/jax_core/" in name for name in files)
    with si.user_context(tb, name_stack=si.new_name_stack("given")):
        assert str(si.current_name_stack()) == "given"
        assert si.current().traceback is tb


def test_source_info_signatures() -> None:
    names = {
        "NameStack", "SourceInfo", "current", "current_name_stack", "extend_name_stack", "new_name_stack",
        "new_source_info", "register_exclusion", "reset_name_stack", "set_name_stack", "summarize",
        "transform_name_stack", "user_context",
    }  # fmt: skip
    assert names <= set(dir(si))
    assert list(inspect.signature(si.summarize).parameters) == ["source_info", "num_frames"]
    assert list(inspect.signature(si.user_context).parameters) == ["traceback", "name_stack"]
    assert list(inspect.signature(si.SourceInfo).parameters) == ["traceback", "name_stack"]

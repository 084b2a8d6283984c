"""jaxtyping's array annotations from jax_core.typing (jax_core/_src/typing/array_annotations.py).

* With jaxtyping installed (a dev dependency), ``jax_core.typing.Float[Array, "b n"]`` is
  jaxtyping's own ``Float[Array, "b n"]``, and jaxtyping's runtime checker (with beartype)
  checks shapes and dtypes of jax_core arrays, eagerly and on the tracers of jit, vmap and grad,
  the same way whether the annotation comes from jax_core.typing or from jaxtyping.
* Without jaxtyping, the subscript is ``typing.Annotated[array_type, spec]``.
* Either way the dimension string is checked against jaxtyping's grammar first.
* For a type checker every name is ``typing.Annotated`` (the contract jax_core's mypy plugin
  keys on), and ``import jax_core`` does not import jaxtyping.

No ``from __future__ import annotations`` here: the checked functions are defined inside
factories, and beartype must see their annotations as objects.
"""

import ast
import inspect
import subprocess
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import jaxtyping
import pytest
from beartype import beartype
from jaxtyping import TypeCheckError, jaxtyped

import jax_core
import jax_core.numpy as jnp
import jax_core.typing as jct
from jax_core._src.typing import array_annotations
from jax_core.typing import Array

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "jax_core" / "_src" / "typing" / "array_annotations.py"

# The dtype annotation names jaxtyping exports: its top-level AbstractDtype subclasses.
JAXTYPING_NAMES = sorted(
    name
    for name in dir(jaxtyping)
    if isinstance(getattr(jaxtyping, name), type)
    and issubclass(getattr(jaxtyping, name), jaxtyping.AbstractDtype)
    and getattr(jaxtyping, name) is not jaxtyping.AbstractDtype
)


# -- the names and the static contract ------------------------------------------------------------
def test_every_jaxtyping_dtype_name_is_exported() -> None:
    assert len(JAXTYPING_NAMES) >= 30
    assert sorted(array_annotations.NAMES) == JAXTYPING_NAMES
    for name in JAXTYPING_NAMES:
        runtime = getattr(jct, name)
        assert isinstance(runtime, array_annotations.DtypeAnnotation), name
        assert runtime is getattr(array_annotations, name)
        assert runtime.__name__ == name
        assert repr(runtime) == f"jax_core.typing.{name}"


def test_each_name_is_annotated_for_type_checkers() -> None:
    """Under TYPE_CHECKING each name is ``from typing import Annotated as <name>``, and
    jax_core/typing.py re-exports it as ``from ... import <name> as <name>``."""
    tree = ast.parse(SOURCE.read_text())
    (block,) = [
        node
        for node in tree.body
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    ]
    static = {
        alias.asname
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module == "typing"
        for alias in node.names
        if alias.name == "Annotated"
    }
    assert static == set(JAXTYPING_NAMES)
    public = ast.parse((ROOT / "jax_core" / "typing.py").read_text())
    reexported = {
        alias.asname
        for node in public.body
        if isinstance(node, ast.ImportFrom)
        and node.module == "jax_core._src.typing.array_annotations"
        for alias in node.names
        if alias.asname == alias.name
    }
    assert reexported == set(JAXTYPING_NAMES)


def test_importing_jax_core_does_not_import_jaxtyping() -> None:
    code = (
        "import sys, jax_core, jax_core.typing, jax_core.numpy\n"
        "from jax_core.typing import Float\n"
        "assert 'jaxtyping' not in sys.modules and 'beartype' not in sys.modules, 'imported'\n"
        "Float[jax_core.Array, 'b n']\n"
        "assert 'jaxtyping' in sys.modules, 'not imported at the first subscript'\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]


# -- with jaxtyping: its own annotations ----------------------------------------------------------
def test_subscript_is_jaxtypings_annotation() -> None:
    ann: Any = jct.Float[Array, "b n"]  # for a checker, Float[Array, ...] is Array
    assert ann.dtype is jaxtyping.Float
    assert ann.array_type is Array
    assert ann.dim_str == "b n"
    assert isinstance(ann, type) and issubclass(ann, jaxtyping.AbstractArray)
    assert isinstance(jnp.ones((2, 3)), ann)
    assert not isinstance(jnp.ones((2, 3), dtype=jnp.int32), ann)
    assert not isinstance(jnp.ones((2, 3, 4)), ann)
    scalar: Any = jct.Int32[Array, ""]
    assert scalar.dtype is jaxtyping.Int32


# The checked functions, written once and run with the names imported from jax_core.typing or
# from jaxtyping: ``from {module} import Float, ...``, then jaxtyping's checker with beartype.
FUNCTIONS = """
import jax_core
import jax_core.numpy as jnp
from jax_core import Array
from {module} import Float, Int32, Key, Shaped


def matmul(x: Float[Array, "b n"], w: Float[Array, "n m"]) -> Float[Array, "b m"]:
    return x @ w


def transpose_add(x: Float[Array, "b n"], y: Float[Array, "n b"]) -> Float[Array, "b n"]:
    return x + y.T


def wrong_return(x: Float[Array, "b n"]) -> Float[Array, "n b"]:
    return x


def concat(x: Float[Array, "n"], y: Float[Array, "m"]) -> Float[Array, "n+m"]:
    return jnp.concatenate([x, y])


def wrong_symbolic(x: Float[Array, "n"]) -> Float[Array, "n+1"]:
    return x


def batch_sum(x: Float[Array, "*batch n"], y: Float[Array, "*batch"]) -> Float[Array, "*batch"]:
    return x.sum(axis=-1) + y


def anything(x: Shaped[Array, "..."]) -> Int32[Array, "3"]:
    return jnp.zeros(3, dtype=jnp.int32) + x.size


def broadcast(x: Float[Array, "#n"], y: Float[Array, "n"]) -> Float[Array, "rows=2 _"]:
    return jnp.stack([x + y, y])


def sample(key: Key[Array, ""]) -> Float[Array, "3"]:
    return jax_core.random.uniform(key, (3,))


def sum_squares(x: Float[Array, "3"]) -> Float[Array, ""]:
    return (x * x).sum()
"""
SOURCES = ("jax_core.typing", "jaxtyping")


def _functions(module: str) -> dict[str, Callable[..., Any]]:
    """FUNCTIONS with the annotation names from ``module``, checked by jaxtyping with beartype."""
    namespace: dict[str, Any] = {"__name__": f"annotated_with_{module.replace('.', '_')}"}
    exec(FUNCTIONS.format(module=module), namespace)  # noqa: S102 (our own source text)
    return {
        name: jaxtyped(typechecker=beartype)(fn)
        for name, fn in namespace.items()
        if inspect.isfunction(fn) and fn.__module__ == namespace["__name__"]
    }


@pytest.fixture(params=[(s, mode) for s in SOURCES for mode in ("eager", "jit")], ids=str)
def fns(request: pytest.FixtureRequest) -> dict[str, Callable[..., Any]]:
    source, mode = request.param
    made = _functions(source)
    if mode == "jit":
        return {name: jax_core.jit(fn) for name, fn in made.items()}
    return made


def _shape(x: object) -> tuple[int, ...]:
    assert isinstance(x, Array)
    return tuple(x.shape)


def test_accepts_what_the_annotations_describe(fns: dict[str, Callable[..., Any]]) -> None:
    assert _shape(fns["matmul"](jnp.ones((2, 3)), jnp.ones((3, 4)))) == (2, 4)
    assert _shape(fns["transpose_add"](jnp.ones((2, 3)), jnp.ones((3, 2)))) == (2, 3)
    assert _shape(fns["transpose_add"](jnp.ones((3, 3)), jnp.ones((3, 3)))) == (3, 3)
    assert _shape(fns["concat"](jnp.ones(2), jnp.ones(3))) == (5,)
    assert _shape(fns["batch_sum"](jnp.ones((2, 3, 4)), jnp.ones((2, 3)))) == (2, 3)
    assert _shape(fns["batch_sum"](jnp.ones(4), jnp.ones(()))) == ()
    assert _shape(fns["anything"](jnp.ones((2, 1, 5), dtype=jnp.int32))) == (3,)
    assert _shape(fns["anything"](jnp.ones((), dtype=jnp.bool_))) == (3,)
    assert _shape(fns["broadcast"](jnp.ones(1), jnp.ones(3))) == (2, 3)
    assert _shape(fns["broadcast"](jnp.ones(3), jnp.ones(3))) == (2, 3)
    assert _shape(fns["sample"](jax_core.random.key(0))) == (3,)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("matmul", [(2, 3), (4, 5)]),  # n bound to 3, then 4
        ("matmul", [(2, 3, 1), (3, 4)]),  # rank
        ("transpose_add", [(2, 3), (2, 3)]),  # "b n" then "n b"
        ("wrong_return", [(2, 3)]),  # the return value is checked too
        ("wrong_symbolic", [(2,)]),  # n+1
        ("batch_sum", [(2, 3, 4), (3, 3)]),  # *batch bound to (2, 3), then (3, 3)
        ("broadcast", [(2,), (3,)]),  # #n: 1 or n
        ("sum_squares", [(4,)]),  # a fixed size
    ],
)
def test_rejects_a_wrong_shape(
    fns: dict[str, Callable[..., Any]], name: str, args: list[tuple[int, ...]]
) -> None:
    with pytest.raises(TypeCheckError):
        fns[name](*[jnp.ones(shape) for shape in args])


def test_rejects_a_wrong_dtype(fns: dict[str, Callable[..., Any]]) -> None:
    with pytest.raises(TypeCheckError, match="int32"):
        fns["matmul"](jnp.ones((2, 3), dtype=jnp.int32), jnp.ones((3, 4)))
    with pytest.raises(TypeCheckError):
        fns["sample"](jnp.ones((), dtype=jnp.uint32))
    # a raw uint32[2] key is not a typed key array
    with pytest.raises(TypeCheckError):
        fns["sample"](jax_core.random.PRNGKey(0))


def test_tracers_of_vmap_and_grad_are_checked() -> None:
    f = _functions("jax_core.typing")
    assert _shape(jax_core.vmap(f["batch_sum"])(jnp.ones((5, 2, 4)), jnp.ones((5, 2)))) == (5, 2)
    assert _shape(jax_core.vmap(f["sum_squares"])(jnp.ones((7, 3)))) == (7,)
    grad = jax_core.grad(f["sum_squares"])(jnp.arange(3.0))
    assert grad.tolist() == [0.0, 2.0, 4.0]
    assert _shape(jax_core.jit(jax_core.grad(f["sum_squares"]))(jnp.ones(3))) == (3,)
    with pytest.raises(TypeCheckError):
        jax_core.vmap(f["sum_squares"])(jnp.ones((7, 4)))
    with pytest.raises(TypeCheckError):
        jax_core.grad(f["sum_squares"])(jnp.ones(4))


# -- the dimension grammar ------------------------------------------------------------------------
VALID = [
    "",
    "b n",
    "  batch   n  ",
    "3",
    "1 2 3",
    "_",
    "_ _",
    "_batch n",
    "#n",
    "#3",
    "*batch",
    "*batch n",
    "#*batch",
    "*#batch",
    "*_ n",
    "...",
    "... n",
    "n ...",
    "?n",
    "?*leaves",
    "n+1",
    "2*n",
    "n-1 m//2",
    "#n+1",
    "min(a,b)",
    "rows=3 cols=4",
    "m=n+1",
    "{n}",
]
# Rejected by jaxtyping itself when the annotation is made (ValueError).
INVALID = [
    "a,b",
    "n#",
    "a...",
    "*batch ...",
    "... ...",
    "*a *b",
    "##n",
    "**n",
    "__n",
    "??n",
    "*4",
    "_4",
    "?4",
    "#_",
    "_n+1",
    "*n+1",
    "?n+1",
]
# Accepted by jaxtyping when the annotation is made, but it cannot evaluate them when it checks
# a value (not a Python expression): jax_core rejects them up front.
NOT_EXPRESSIONS = ["n+", "a=b=c", "n)", "len('ab')"]


@pytest.mark.parametrize("spec", VALID, ids=repr)
def test_valid_dimension_strings(spec: str) -> None:
    array_annotations.check_dims(spec)
    ours: Any = jct.Float[Array, spec]
    theirs: Any = jaxtyping.Float[Array, spec]
    assert ours.dims == theirs.dims
    assert ours.index_variadic == theirs.index_variadic


@pytest.mark.parametrize("spec", INVALID, ids=repr)
def test_invalid_dimension_strings_raise_as_in_jaxtyping(spec: str) -> None:
    with pytest.raises(ValueError):
        jaxtyping.Float[Array, spec]
    with pytest.raises(ValueError):
        jct.Float[Array, spec]
    with pytest.raises(ValueError):
        array_annotations.check_dims(spec)


@pytest.mark.parametrize("spec", NOT_EXPRESSIONS, ids=repr)
def test_symbolic_dimensions_must_be_expressions(spec: str) -> None:
    with pytest.raises(ValueError, match="not a valid symbolic dimension"):
        jct.Float[Array, spec]


def test_messages_name_the_problem() -> None:
    with pytest.raises(ValueError, match="not commas"):
        jct.Float[Array, "b,n"]
    with pytest.raises(ValueError, match=r"more than once; '\*a n \*b' has \*a and \*b"):
        jct.Float[Array, "*a n *b"]
    with pytest.raises(ValueError, match="'#' at the start"):
        jct.Float[Array, "n#"]


@pytest.mark.parametrize("item", [Array, (Array,), (Array, "n", "m"), "n"], ids=repr)
def test_a_subscript_takes_an_array_type_and_a_string(item: object) -> None:
    with pytest.raises(ValueError, match=r"Float\[Array, 'batch n'\]"):
        jct.Float[item]


@pytest.mark.parametrize("spec", [3, None, ("b", "n")], ids=repr)
def test_the_dimensions_must_be_a_string(spec: object) -> None:
    """jaxtyping means a ValueError here (its _make_array_cached), but 0.3 calls ``.strip()`` on
    the dimensions first and fails with AttributeError; jax_core raises the ValueError."""
    with pytest.raises((AttributeError, ValueError)):
        jaxtyping.Float[Array, spec]
    with pytest.raises(ValueError, match="must be a string"):
        jct.Float[Array, spec]


# -- without jaxtyping ----------------------------------------------------------------------------
@pytest.fixture
def no_jaxtyping(monkeypatch: pytest.MonkeyPatch) -> None:
    """Makes ``import jaxtyping`` fail, as when it is not installed."""
    monkeypatch.setitem(sys.modules, "jaxtyping", None)


@pytest.mark.usefixtures("no_jaxtyping")
def test_without_jaxtyping_the_subscript_is_annotated() -> None:
    with pytest.raises(ImportError):
        __import__("jaxtyping")
    ann: object = jct.Float[Array, "b n"]
    assert ann == Annotated[Array, "b n"]
    assert typing.get_origin(ann) is Annotated
    assert typing.get_args(ann) == (Array, "b n")
    assert jct.Key[Array, ""] == Annotated[Array, ""]
    assert jct.Int32[Array, "*batch 3"] == Annotated[Array, "*batch 3"]

    def f(x: jct.Float[Array, "b n"]) -> jct.Float[Array, "*batch"]:
        return x.sum(axis=1)

    hints = typing.get_type_hints(f)
    assert hints == {"x": Array, "return": Array}
    extras = typing.get_type_hints(f, include_extras=True)
    assert extras == {"x": Annotated[Array, "b n"], "return": Annotated[Array, "*batch"]}
    assert _shape(f(jnp.ones((2, 3)))) == (2,)


@pytest.mark.usefixtures("no_jaxtyping")
@pytest.mark.parametrize("spec", INVALID + NOT_EXPRESSIONS, ids=repr)
def test_without_jaxtyping_the_grammar_is_checked(spec: str) -> None:
    with pytest.raises(ValueError):
        jct.Float[Array, spec]


@pytest.mark.usefixtures("no_jaxtyping")
def test_without_jaxtyping_the_item_is_checked() -> None:
    with pytest.raises(ValueError, match="array type and a dimension string"):
        jct.Float[Array]
    with pytest.raises(ValueError, match="must be a string"):
        jct.Float[Array, 3]

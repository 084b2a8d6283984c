"""Records JAX 0.12's behaviour of symbolic dimensions for ``tests/shape_poly``.

Run under the oracle venv: ``.venv-jax/bin/python tools/record_shape_poly_forms.py``. Writes
``tests/shape_poly/jax_forms.json`` with

* ``cases``: expression text -> JAX's result (see :func:`show`) or ``"raise Class: message"``;
  each expression is evaluated after ``PRELUDE`` in a fresh namespace where ``shape``,
  ``Scope``, ``bounds``, ``max_dim``, ``min_dim``, ``is_symbolic`` are JAX's;
* ``solve``: for argument shape specs, JAX's dimension-variable solution, its shape constraints
  (kind, sides, message with ``{n}`` placeholders, message inputs) and the outcomes of calling
  the exported function with concrete shapes;
* ``mlir_messages``: the ``error_message`` attributes of the shape assertions in the lowered
  module for ``"b, 4*h"``.

``--live EXPR...`` prints the JSON of just those cases (used by the live oracle test).
Every text goes through :func:`normalize` (scope ids and creation locations differ per run).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "tests" / "shape_poly" / "jax_forms.json"

PRELUDE = """
S = Scope()
a, b, c, h, w = shape("a, b, c, h, w", scope=S)
def P(spec):
    return shape(spec, scope=S)[0]
"""

_SCOPE_RE = re.compile(r"\d+ created at \S+ \([^)]*\)")


def normalize(text: str) -> str:
    """``text`` with scope identities and creation locations replaced by ``<scope>``."""
    return _SCOPE_RE.sub("<scope>", text)


def show(r: Any) -> str:
    """A canonical text for a result: ``sym:``/``int:`` tags, tuples and bools spelled out."""
    if isinstance(r, bool):
        return f"bool:{r}"
    if isinstance(r, (tuple, list)):
        return "(" + ", ".join(show(x) for x in r) + ")"
    if isinstance(r, (set, frozenset)):
        return "{" + ", ".join(sorted(str(x) for x in r)) + "}"
    if isinstance(r, int):
        return f"int:{r}"
    if isinstance(r, float):
        return f"float:{r}"
    if type(r).__name__ in ("_DimExpr", "DimExpr"):
        return f"sym:{r}"
    return f"{type(r).__name__}:{normalize(str(r))}"


def run_case(expr: str, namespace: dict[str, Any]) -> str:
    """Evaluates ``expr`` after the prelude in a copy of ``namespace``; the shown outcome."""
    ns = dict(namespace)
    exec(PRELUDE, ns)  # noqa: S102 - the fixed prelude of the cases
    try:
        return show(eval(expr, ns))
    except Exception as e:  # noqa: BLE001 - recording what is raised is the point
        return f"raise {type(e).__name__}: {normalize(str(e))}"


_ARITH = [
    "a + a",
    "a * b",
    "b * a",
    "a - a",
    "-a",
    "a - 1",
    "1 - a",
    "a * a * b",
    "(a + b) * (a - b)",
    "(a + 1) ** 2",
    "a ** 0",
    "a ** 3",
    "a ** -1",
    "a ** 2.5",
    "2 * a + 3 * b - 1",
    "3 - 2*a + b*c",
    "a*b*c + a*b + a + 1",
    "c*b*a",
    "(a + b) * 0",
    "a * 1",
    "0 + a",
    "a - a + 3",
    "(a*b)**2",
    "-(a - b)",
    "w*h + h*w",
    "h - w + a - c",
    "2*h*h - 3*a*w",
    "(a - 1) * (a + 1) - a*a",
]
_DIVISION = [
    "a // 2",
    "a % 3",
    "divmod(a, 2)",
    "(2*a) // 2",
    "(2*a + 4) // 2",
    "(2*a + 5) // 2",
    "(2*a + 5) % 2",
    "(a*b) // a",
    "(a*b + a) // a",
    "a // b",
    "a % b",
    "7 // a",
    "7 % a",
    "divmod(7, a)",
    "(6*a) // 4",
    "(6*a) % 4",
    "a // 0",
    "a // -2",
    "(4*a) // -2",
    "a // 1",
    "(a*b) % b",
    "(a*b + b) // b",
    "(a // 2) // 3",
    "(a // 2) * 2 + a % 2",
    "a // 2 + a % 2 * 3",
    "(a + b) // (a + b)",
    "(2*a + 2*b) // (a + b)",
    "(a*a) // a",
    "divmod(a*b + 3, b)",
]
_COMPARE = [
    "a >= 1",
    "a >= 2",
    "a > 0",
    "a < 1",
    "a <= 0",
    "a == 1",
    "a != a",
    "a == a",
    "2*a >= a",
    "a*b >= a",
    "a*b >= 1",
    "a - b >= 0",
    "a + b > b",
    "a // 2 >= 0",
    "a % 3 < 3",
    "a % 3 >= 0",
    "a % 3 <= 2",
    "P('max(a, b)') >= a",
    "P('min(a, b)') <= b",
    "P('max(a, b)') >= a + b",
    "a // b >= 0",
    "a*a >= a",
    "a % b < b",
    "a == P('a')",
    "a != b",
    "a == 3",
    "3 == a",
    "hash(a) == hash(P('a'))",
    "a < b",
    "a >= -5",
    "a - 10 < a",
    "2*a - 1 >= a",
    "a*b - a >= 0",
    "P('mod(a, 4)') <= 3",
    "P('floordiv(a, 4)') <= a",
    "P('max(a, 5)') >= 5",
    "P('min(a, 5)') <= 5",
    "P('min(a, 5)') >= 1",
    "a >= 2.5",
    "a <= 1.5",
]
_BOUNDS = [
    "bounds(a)",
    "bounds(a - 3)",
    "bounds(-a)",
    "bounds(a // 2)",
    "bounds(a % 5)",
    "bounds(a*b)",
    "bounds(a*b - a)",
    "bounds(P('max(a, 3)'))",
    "bounds(P('min(a, 3)'))",
    "bounds(a // b)",
    "bounds(7)",
    "bounds(a % b)",
    "bounds(a*a)",
    "bounds(-a*b)",
    "bounds(P('floordiv(a, b - 1)'))",
    "bounds(P('mod(a, -3)'))",
    "bounds(P('floordiv(-a, 2)'))",
    "bounds(P('max(a, b) - a'))",
    "bounds(P('min(a, b) - a'))",
    "bounds(3.5)",
    "bounds(P('floordiv(10, a)'))",
    "bounds(2*a + 3)",
    "bounds(P('a - min(a, 4)'))",
]
_MAX_MIN = [
    "max_dim(a, 3)",
    "max_dim(3, a)",
    "max_dim(a, 0)",
    "max_dim(a, 1)",
    "min_dim(a, 1)",
    "min_dim(a, 0)",
    "max_dim(a, b)",
    "min_dim(b, a)",
    "max_dim(a, a + 1)",
    "min_dim(a - 1, a)",
    "max_dim(2, 5)",
    "min_dim(2, 5)",
    "max_dim(a, -a)",
    "max_dim(a // 2, a)",
    "min_dim(3, a)",
    "max_dim(a - 2, 0)",
    "min_dim(a, b) + max_dim(a, b)",
    "max_dim(a, 'x')",
]
_MISC = [
    "int(a)",
    "int(P('a - a + 3'))",
    "is_symbolic(a)",
    "is_symbolic(3)",
    "sorted(a.get_vars())",
    "sorted((a*b + P('floordiv(c, h)')).get_vars())",
    "a.scope is S",
    "bool(a)",
    "a * 2.5",
    "a + 'x'",
    "str(P('mod(a*b, 3)'))",
    "P('floordiv(a, 2) * b')",
    "P('max(a, b) + min(a, c)')",
    "P('mod(a*b, 3)')",
    "(a + b) * P('max(a, b)')",
    "P('max(a, b)') * P('min(a, b)')",
]
_PARSE = [
    "shape('b, 4*h')",
    "shape('(b, h)')",
    "shape('b,')",
    "shape('')",
    "shape('()')",
    "shape('b + 2*h - 3, floordiv(b, 2), mod(b, 3), max(b, h), min(b, 2)')",
    "shape('b ^ 2')",
    "shape('2 * b * h')",
    "shape('-b + 3')",
    "shape('b*-2')",
    "shape('_, b', like=(3, None))",
    "shape('..., b', like=(3, 4, None))",
    "shape('b, ...', like=(None, 3, 4))",
    "shape(None, like=(2, 3))",
    "shape('_', like=(None,))",
    "shape('b, 2.5')",
    "shape('b+')",
    "shape(', b')",
    "shape('(b, h')",
    "shape('b h')",
    "shape('b, _')",
    "shape('...')",
    "shape('3, b', like=(4, None))",
    "shape('3, b', like=(3, None))",
    "shape(3)",
    "shape('b', constraints=['b >= 2'], scope=Scope())",
    "shape('floordiv(b)')",
    "shape('mod(b, 2, 3)')",
    "shape('b^h')",
    "shape('max(2, 3)')",
    "shape('floordiv(7, 2)')",
    "shape('b * (h + 1)')",
    "shape('b_1, B, x2')",
    "shape('b, b - b')",
    "shape('b + ')",
    "shape('-3, 0')",
    "shape('b, , h')",
    "shape('b)')",
    "shape('max(b, b + 1)')",
    "shape('b ^ 0')",
    "shape('+b')",
    "shape('b -- h')",
    "shape('floordiv(b, 0)')",
    "shape('mod(4*b, 2)')",
    "shape('b', like=(3, 4))",
    "shape('_, _', like=(3,))",
    "shape('b', like=[None])",
]
_SCOPES = [
    "str(Scope(['b >= 2']))",
    "str(Scope())",
    "Scope('b >= 2')",
    "Scope(['b > 2'])",
    "Scope([3])",
    "Scope(['b + h == 3'])",
    "Scope(['3 >= 4'])",
    "Scope(['b == 2', 'b == 3'])",
    "str(Scope(['b >= 3', 'b <= 2']))",
    "str(Scope(['2*b == h', 'b <= 10']))",
    "Scope(['b == 3', 'b == 4'])",
    "Scope(['b*h == 3', 'b*h == 4'])",
    "Scope(['b >= c', 'b <= c - 1'])",
    "Scope(['b >= 2,'])",
    "Scope(['2 == b'])",
    "repr(Scope(['mod(b, 4) == 0']))",
    "(lambda b, h: (4*b, 2*b, 3*b, b >= 1, 4*b*h))(*shape('b, h', constraints=['2*b == h']))",
    "(lambda b: (b >= 2, b >= 3))(*shape('b', constraints=['b >= 2']))",
    "(lambda a, b: a >= b)(*shape('a, b', constraints=['a >= b']))",
    "(lambda a, b: (a - b >= 2, a > b, max_dim(a, b), min_dim(a, b)))(*shape('a, b', constraints=['a >= b + 2']))",
    "(lambda b: (b // 4 * 4, b % 4, 4 * (b // 4), b + b % 4))(*shape('b', constraints=['mod(b, 4) == 0']))",
    "(lambda b: (b <= 10, b < 10))(*shape('b', constraints=['b <= 10']))",
    "(lambda b: bounds(b))(*shape('b', constraints=['b <= 10', 'b >= 3']))",
    "(lambda b, h: bounds(b*h))(*shape('b, h', constraints=['b <= 10', 'h <= 4']))",
    "(lambda b, h: (bounds(b - h), b >= h))(*shape('b, h', constraints=['b >= h + 3']))",
    "(lambda b: b >= 2)(*shape('b', constraints=['b >= 3', 'b <= 2']))",
    "(lambda x, y: x + y)(shape('b')[0], shape('c')[0])",
    "(lambda x, y: x == y)(shape('b')[0], shape('b')[0])",
    "(lambda x, y: x >= y)(shape('b')[0], shape('b')[0])",
    "(lambda x, y: x * y)(shape('b')[0], shape('b')[0])",
    "(lambda x, y: max_dim(x, y))(shape('b')[0], shape('b')[0])",
    "(lambda x, y: x // y)(shape('b')[0], shape('b')[0])",
    "(lambda b, h: (b*h, h*b*2, 3*b*h + 1))(*shape('b, h', constraints=['b*h == 12']))",
    "(lambda b, h: (h >= 2, bounds(h)))(*shape('b, h', constraints=['b == 3*h']))",
    "(lambda b, h: (max_dim(b, h), b - h))(*shape('b, h', constraints=['b >= h']))",
    "(lambda b, h: (b >= 2, h <= 4))(*shape('b, h', constraints=['b + h >= 3', 'h <= 4', 'b >= h']))",
    "(lambda s: shape('b + 1', scope=s))(Scope(['b >= 5']))",
    "(lambda b: (b % 2, b // 2 * 2))(*shape('b', constraints=['mod(b, 2) == 0', 'b >= 4']))",
]

CASES: list[str] = _ARITH + _DIVISION + _COMPARE + _BOUNDS + _MAX_MIN + _MISC + _PARSE + _SCOPES

# (specs per positional argument, kwargs names (the last len(kw) specs are kwargs),
#  constraints, concrete shapes to call with)
SOLVE: list[dict[str, Any]] = [
    {"specs": ["b, 4*h"], "calls": [[[3, 8]], [[3, 9]], [[0, 8]], [[3]], [[3, 0]], [[1, 4]]]},
    {"specs": ["b, b"], "calls": [[[3, 3]], [[3, 4]]]},
    {"specs": ["2*b, b+1"], "calls": [[[4, 3]], [[5, 3]], [[4, 4]], [[0, 1]]]},
    {"specs": ["3, b"], "calls": [[[3, 5]], [[4, 5]]]},
    {"specs": ["b, h", "h, 2*b"], "calls": [[[2, 3], [3, 4]], [[2, 3], [3, 5]], [[2, 3], [4, 4]]]},
    {"specs": ["b*h"], "calls": []},
    {"specs": ["b, h*h"], "calls": []},
    {
        "specs": ["b, h"],
        "constraints": ["b >= h + 1", "h <= 16"],
        "calls": [[[5, 3]], [[3, 3]], [[20, 17]]],
    },
    {"specs": ["b, 2*b + h"], "calls": [[[2, 7]], [[2, 4]]]},
    {"specs": ["2*b + 1, c"], "calls": [[[5, 2]], [[4, 2]], [[1, 2]]]},
    {"specs": ["max(b, 4), b"], "calls": [[[5, 5]], [[2, 2]], [[4, 2]]]},
    {"specs": ["b, 5", "b"], "kwargs": ["y"], "calls": [[[2, 5], [2]], [[2, 5], [3]]]},
    {
        "specs": ["b, h"],
        "constraints": ["mod(b, 4) == 0", "2*h == b"],
        "calls": [[[8, 4]], [[6, 3]], [[8, 5]]],
    },
    {"specs": ["b", "4, b"], "calls": [[[3], [4, 3]], [[3], [4, 4]]]},
]


def _record_solve(entry: dict[str, Any]) -> dict[str, Any]:
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import export
    from jax._src.export import shape_poly

    scope = export.SymbolicScope(entry.get("constraints", ()))
    kw_names: list[str] = entry.get("kwargs", [])
    n_pos = len(entry["specs"]) - len(kw_names)
    shapes = [export.symbolic_shape(s, scope=scope) for s in entry["specs"]]
    structs = [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes]
    pos, kw = structs[:n_pos], dict(zip(kw_names, structs[n_pos:]))
    tree = jax.tree_util.tree_structure((tuple(pos), kw))
    names = [
        shape_poly.pretty_print_dimension_descriptor(tree, i, None) for i in range(len(structs))
    ]
    avals = tuple(jax.core.ShapedArray(s.shape, s.dtype) for s in structs)
    out: dict[str, Any] = {
        "specs": entry["specs"],
        "kwargs": kw_names,
        "constraints": entry.get("constraints", []),
        "names": names,
    }
    try:
        solution, constraints, synth = shape_poly.solve_dim_vars(avals, tree)
    except Exception as e:  # noqa: BLE001
        out["error"] = f"{type(e).__name__}: {normalize(str(e))}"
        return out
    env = {name: shape_poly._DimExpr._from_var(name, scope) for name, _, _ in synth}
    ev = shape_poly.ShapeEvaluator(env)
    out["synthetic"] = [[name, i, j] for name, i, j in synth]
    out["dim_vars"] = list(shape_poly.all_dim_vars(avals))
    out["solution"] = {v: str(ev.evaluate(solution[v])) for v in out["dim_vars"]}
    recorded = []
    for c in constraints.constraints:
        msg, inputs = c.error_message_and_inputs(ev)
        kind = "eq" if c.comp == shape_poly.Comparator.EQ else "ge"
        recorded.append(
            [
                kind,
                str(ev.evaluate(c.left)),
                str(ev.evaluate(c.right)),
                msg,
                [str(x) for x in inputs],
            ]
        )
    out["shape_constraints"] = recorded

    def f(*args: Any, **kwargs: Any) -> Any:
        return args[0]

    exp = export.export(jax.jit(f))(*pos, **kw)
    calls = []
    for call in entry["calls"]:
        arrays = [np.zeros(s, np.float32) for s in call]
        try:
            exp.call(*arrays[:n_pos], **dict(zip(kw_names, arrays[n_pos:])))
            int_env = {name: call[i][j] for name, i, j in synth}
            iev = shape_poly.ShapeEvaluator(int_env)
            calls.append(
                {
                    "shapes": call,
                    "values": {v: int(iev.evaluate(solution[v])) for v in out["dim_vars"]},
                }
            )
        except Exception as e:  # noqa: BLE001
            calls.append({"shapes": call, "error": f"{type(e).__name__}: {normalize(str(e))}"})
    out["calls"] = calls
    return out


def namespace() -> dict[str, Any]:
    """JAX's functions under the names the cases use."""
    import jax
    from jax import export

    return {
        "shape": export.symbolic_shape,
        "Scope": export.SymbolicScope,
        "bounds": export.symbolic_dim_bounds,
        "max_dim": jax.core.max_dim,
        "min_dim": jax.core.min_dim,
        "is_symbolic": export.is_symbolic_dim,
    }


def _mlir_messages() -> list[str]:
    import jax
    import jax.numpy as jnp
    from jax import export

    spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 4*h"), jnp.float32)
    text = export.export(jax.jit(lambda x: x))(spec).mlir_module()
    return [json.loads(m) for m in re.findall(r'error_message = ("(?:[^"\\]|\\.)*")', text)]


def main(argv: list[str]) -> None:
    if argv[:1] == ["--live"]:
        ns = namespace()
        print(json.dumps({e: run_case(e, ns) for e in argv[1:]}))
        return
    import jax

    ns = namespace()
    data = {
        "jax_version": jax.__version__,
        "cases": {e: run_case(e, ns) for e in CASES},
        "solve": [_record_solve(entry) for entry in SOLVE],
        "mlir_messages": _mlir_messages(),
    }
    OUT.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    print(f"wrote {OUT}: {len(data['cases'])} cases, {len(data['solve'])} solve specs")


if __name__ == "__main__":
    main(sys.argv[1:])

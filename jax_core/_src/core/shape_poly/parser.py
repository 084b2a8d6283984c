"""Parsing symbolic shape specifications such as ``"b, 2*h + 1, floordiv(w, 2)"``."""

from __future__ import annotations

import io
import tokenize
from collections.abc import Iterator, Sequence
from typing import Final

from jax_core._src.core.shape_poly.decision import max_dim, min_dim
from jax_core._src.core.shape_poly.dim_expr import MAX, MIN, OPERATIONS, DimExpr, DimSize
from jax_core._src.core.shape_poly.scope import SymbolicScope

Token = tokenize.TokenInfo

_FOLLOW_SHAPE: Final = (tokenize.ENDMARKER, tokenize.RPAR)
_FOLLOW_EXPR: Final = (*_FOLLOW_SHAPE, tokenize.COMMA)
_FOLLOW_TERM: Final = (*_FOLLOW_EXPR, tokenize.PLUS, tokenize.MINUS)
_SKIPPED: Final = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)


class _Parser:
    """A recursive-descent parser over Python's tokenizer (as JAX's, for the same messages)."""

    def __init__(
        self, spec: str, like: Sequence[int | None] | None, spec_repr: str, scope: SymbolicScope
    ):
        self.spec = spec
        self.spec_repr = spec_repr
        self.like = like
        self.scope = scope
        self.dimensions: list[DimSize] = []
        self.tokens: Iterator[Token] = iter(())

    def parse(self) -> tuple[DimSize, ...]:
        self.tokens = tokenize.tokenize(io.BytesIO(self.spec.encode("utf-8")).readline)
        tok = self.consume(self.next_tok(), tokenize.ENCODING)
        shape, tok = self.shape(tok)
        self.expect(tok, (tokenize.ENDMARKER,))
        return shape

    def error(self, tok: Token | None, detail: str) -> ValueError:
        msg = f"syntax error in symbolic shape {self.spec_repr} in dimension {len(self.dimensions)}: {detail}. "
        if tok is not None:
            col = tok.start[1]
            msg += f"Parsed '{tok.line[:col]}', remaining '{tok.line[col:]}'."
        return ValueError(msg)

    def next_tok(self) -> Token:
        while True:
            try:
                tok = next(self.tokens)
            except StopIteration:
                raise self.error(None, "unexpected end of string") from None
            if tok.exact_type not in _SKIPPED:
                return tok

    def expect(self, tok: Token, expected: Sequence[int]) -> None:
        if tok.exact_type not in expected:
            names = ", ".join(tokenize.tok_name[t] for t in expected)
            raise self.error(
                tok, f"expecting one of {{{names}}} but found {tokenize.tok_name[tok.exact_type]}"
            )

    def consume(self, tok: Token, expected: int) -> Token:
        self.expect(tok, (expected,))
        return self.next_tok()

    def integer(self, tok: Token) -> tuple[int, Token]:
        self.expect(tok, (tokenize.NUMBER,))
        try:
            val = int(tok.string)
        except ValueError:
            raise self.error(tok, f"expecting integer, found {tok.string}") from None
        return val, self.next_tok()

    def add_dim(self, e: DimSize | None, tok: Token) -> None:
        if e is None:
            raise self.error(tok, f"unexpected placeholder for unknown dimension; like={self.like}")
        if (
            not isinstance(e, DimExpr)
            and self.like is not None
            and e != self.like[len(self.dimensions)]
        ):
            raise self.error(tok, f"different size {e} for known dimension; like={self.like}")
        self.dimensions.append(e)

    def shape(self, tok: Token) -> tuple[tuple[DimSize, ...], Token]:
        if tok.exact_type == tokenize.LPAR:
            res, tok = self.shape(self.next_tok())
            return res, self.consume(tok, tokenize.RPAR)
        while tok.exact_type not in _FOLLOW_SHAPE:
            is_ellipsis = tok.exact_type == tokenize.ELLIPSIS
            is_placeholder = tok.exact_type == tokenize.NAME and tok.string == "_"
            if is_ellipsis or is_placeholder:
                if self.like is None:
                    raise self.error(tok, "spec contains ... but no 'like' shape was given")
                needed = len(self.dimensions) + (0 if is_ellipsis else 1)
                if len(self.like) < needed:
                    raise self.error(
                        tok,
                        f"cannot resolve placeholder '{tok.string}' because we parsed "
                        f"{len(self.dimensions)} already and 'like' shape has only {len(self.like)} dimensions",
                    )
            if is_ellipsis:
                assert self.like is not None
                for d in self.like[len(self.dimensions) :]:
                    self.add_dim(d, tok)
                tok = self.next_tok()
                break
            e: DimSize | None
            if is_placeholder:
                assert self.like is not None
                e = self.like[len(self.dimensions)]
                tok = self.next_tok()
            else:
                e, tok = self.expr(tok)
            self.add_dim(e, tok)
            if tok.exact_type in _FOLLOW_SHAPE:
                break
            tok = self.consume(tok, tokenize.COMMA)
        return tuple(self.dimensions), tok

    def expr(self, tok: Token) -> tuple[DimSize, Token]:
        negated = tok.exact_type == tokenize.MINUS
        if negated or tok.exact_type == tokenize.PLUS:
            tok = self.next_tok()
        acc: DimSize | None = None
        while True:
            t, tok = self.term(tok)
            signed = -t if negated else t
            acc = signed if acc is None else acc + signed
            if tok.exact_type in _FOLLOW_EXPR:
                return acc, tok
            negated = tok.exact_type == tokenize.MINUS
            self.expect(tok, (tokenize.PLUS, tokenize.MINUS))
            tok = self.next_tok()

    def term(self, tok: Token) -> tuple[DimSize, Token]:
        acc: DimSize | None = None
        while True:
            f, tok = self.factor(tok)
            if tok.exact_type == tokenize.CIRCUMFLEX:
                tok = self.next_tok()
                power, tok = self.integer(tok)
                f = _power(f, power)
            acc = f if acc is None else acc * f
            if tok.exact_type in _FOLLOW_TERM:
                return acc, tok
            tok = self.consume(tok, tokenize.STAR)

    def factor(self, tok: Token) -> tuple[DimSize, Token]:
        if tok.exact_type == tokenize.NAME:
            if tok.string in OPERATIONS:
                return self.binary_op(tok.string, self.next_tok())
            return DimExpr.from_var(tok.string, self.scope), self.next_tok()
        sign = 1
        if tok.exact_type == tokenize.MINUS:
            sign = -1
            tok = self.next_tok()
            self.expect(tok, (tokenize.NUMBER,))
        if tok.exact_type == tokenize.NUMBER:
            v, tok = self.integer(tok)
            return v * sign, tok
        self.expect(tok, (tokenize.NAME, tokenize.MINUS, tokenize.NUMBER))
        raise AssertionError("unreachable")

    def binary_op(self, op: str, tok: Token) -> tuple[DimSize, Token]:
        tok = self.consume(tok, tokenize.LPAR)
        e1, tok = self.expr(tok)
        tok = self.consume(tok, tokenize.COMMA)
        e2, tok = self.expr(tok)
        tok = self.consume(tok, tokenize.RPAR)
        if op == MAX:
            return max_dim(e1, e2), tok
        if op == MIN:
            return min_dim(e1, e2), tok
        return DimExpr.from_operation(op, e1, e2, scope=self.scope), tok


def _power(f: DimSize, power: int) -> DimSize:
    if isinstance(f, DimExpr):
        return f**power
    return int(f**power)


def parse_dims(
    spec: str, like: Sequence[int | None] | None, spec_repr: str, scope: SymbolicScope
) -> tuple[DimSize, ...]:
    """The dimensions of ``spec`` in ``scope`` (``spec_repr`` names it in error messages)."""
    return _Parser(spec, like, spec_repr, scope).parse()


def symbolic_shape(
    shape_spec: str | None,
    *,
    constraints: Sequence[str] = (),
    scope: SymbolicScope | None = None,
    like: Sequence[int | None] | None = None,
) -> tuple[DimSize, ...]:
    """Parses a symbolic shape such as ``"(b, 2*h, floordiv(w, 2))"``.

    Dimensions are integers, variables, ``e1 + e2``, ``e1 - e2``, ``e1 * e2``, ``e ^ k``,
    ``floordiv(e1, e2)``, ``mod(e1, e2)``, ``max(e1, e2)``, ``min(e1, e2)``; ``_`` and ``...``
    take dimensions from ``like``. ``None`` means ``"..."``. The expressions belong to ``scope``,
    or to a new scope with ``constraints`` (giving both is an error).
    """
    spec_repr = repr(shape_spec)
    if shape_spec is None:
        shape_spec = "..."
    elif not isinstance(shape_spec, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise ValueError(f"polymorphic shape spec should be None or a string. Found {spec_repr}.")
    if scope is None:
        scope = SymbolicScope(constraints)
    elif constraints:
        raise ValueError("Cannot specify both a `scope` and `constraints`.")
    return parse_dims(shape_spec, like, spec_repr, scope)

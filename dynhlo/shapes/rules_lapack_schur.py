"""Shape rules and call checks: JAX's CPU LAPACK calls for the Schur and Hessenberg forms, the
tridiagonal reduction and the tridiagonal solve.

The contracts, on logical values (the column-major layouts JAX asks for change storage only),
batch dimensions leading, from jax/_src/lax/linalg.py (`_schur_cpu_lowering`,
`_hessenberg_cpu_lowering`, `_tridiagonal_cpu_gpu_lowering`, `_tridiagonal_solve_cpu_lowering`)
and jaxlib/cpu/lapack_kernels.cc (the handlers' operands, attributes and results); x is the
element type the letter names (s f32, d f64, c c64, z c128), r its real type:

- lapack_{s,d}gees_ffi (a [..., n, n]; mode, sort) -> (T, vs, wr [..., n], wi [..., n],
  sdim [...], info [...]); lapack_{c,z}gees_ffi -> (T, vs, w [..., n], sdim, info). `mode`
  ui8 'V' (86) computes the Schur vectors vs, 'N' (78) does not (vs unspecified: zeros here);
  `sort` ui8 'N' (78): jaxlib refuses 'S' (83: it has no `select` function), and so does
  dynhlo (UnsupportedError).
- lapack_{s,d,c,z}gehrd_ffi (a [..., n, n]; low, high i32) -> (H with the reflectors below
  its subdiagonal, tau [..., n-1], info [...]): LAPACK's gehrd with ilo = low, ihi = high.
- lapack_{s,d}sytrd_ffi, lapack_{c,z}hetrd_ffi (a [..., n, n]; uplo ui8 'L'/'U') -> (a with
  the reflectors, d r[..., n], e r[..., n-1], tau x[..., n-1], info [...]).
- lapack_{s,d,c,z}gtsv_ffi (dl, d, du [..., m], b [..., m, k]) -> (dl, d, du, b, info [...]):
  dl[..., 0] and du[..., m-1] are outside the matrix (LAPACK reads dl from its second entry).

A call jaxlib's handler would refuse (an operand too many or few, of another element type or
rank, a non-square matrix, a missing or unknown attribute, results of other element types or
dims) is an HloVerifyError naming the instruction when the module compiles.
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..hlo import attrs
from .rules import CUSTOM_CALL_RULES
from . import algebra
from .sizes import bound_of, derive, unify
from .square import square

SCHUR_TARGETS = tuple(f"lapack_{k}gees_ffi" for k in "sdcz")
HESSENBERG_TARGETS = tuple(f"lapack_{k}gehrd_ffi" for k in "sdcz")
TRIDIAGONAL_TARGETS = ("lapack_ssytrd_ffi", "lapack_dsytrd_ffi", "lapack_chetrd_ffi",
                       "lapack_zhetrd_ffi")
GTSV_TARGETS = tuple(f"lapack_{k}gtsv_ffi" for k in "sdcz")

# LAPACK letter -> (element type, its real type)
_TYPES = {"s": ("f32", "f32"), "d": ("f64", "f64"), "c": ("c64", "f32"), "z": ("c128", "f64")}


def _target(inst) -> str:
    return attrs.string(inst, "custom_call_target")


def _operand_types(ctx, inst, count: int) -> tuple[str, str]:
    """(x, r) of the target's letter, after checking the operand count and element types."""
    target = _target(inst)
    if len(inst.operands) != count:
        raise ctx.error(f"{target} takes {count} operand(s), not {len(inst.operands)}")
    x, r = _TYPES[target[len("lapack_")]]
    for i, operand in enumerate(inst.operands):
        if operand.shape.is_tuple or operand.shape.element_type != x:
            raise ctx.error(f"{target} takes {x} arrays; operand {i} is {operand.shape}")
    return x, r


def _square(ctx, inst, operand) -> tuple[tuple, object]:
    """(batch dims, n) of a [..., n, n] operand."""
    if len(operand) < 2:
        raise ctx.error(f"{_target(inst)} needs matrices of rank >= 2 (batch..., n, n), not "
                        f"{inst.operands[0].shape}")
    square(inst, operand)
    n = unify(operand[-2], operand[-1], inst.name)
    if n is None:
        raise ctx.error(f"{_target(inst)} needs square matrices, not {inst.operands[0].shape}")
    return operand[:-2], n


def _results(ctx, inst, dims: list, types: list[str]) -> list:
    """`dims` once the declared result tuple has `types` (the dims are checked against the
    declared ones by the caller of the rule)."""
    shape = inst.shape
    got = [e.element_type if not e.is_tuple else "tuple" for e in shape.elements] \
        if shape.is_tuple else None
    if got != types:
        raise ctx.error(f"{_target(inst)} of {inst.operands[0].shape} gives a tuple of element "
                        f"types ({', '.join(types)}), not {shape}")
    return dims


def _char(ctx, inst, name: str, allowed: str) -> str:
    value = attrs.ffi_char(inst, name, "")
    if value == "" or value not in allowed:
        raise ctx.error(f"{_target(inst)} needs the ui8 attribute {name} = one of "
                        f"{', '.join(f'{ord(c)} ({c!r})' for c in allowed)}, not "
                        f"{inst.attrs.get('backend_config') or 'none'}")
    return value


def _less_one(n):
    """n-1 (0 for an empty matrix): the count of reflectors of an n x n reduction."""
    return derive(lambda k: algebra.maximum(algebra.sub(k, algebra.ONE), algebra.ZERO), (n,),
                  max(bound_of(n) - 1, 0))


def _schur_rule(ctx, inst, operands):
    x, _ = _operand_types(ctx, inst, 1)
    batch, n = _square(ctx, inst, operands[0])
    _char(ctx, inst, "mode", "NV")
    if _char(ctx, inst, "sort", "NS") == "S":
        raise UnsupportedError(f"custom-call '{inst.name}' ({_target(inst)}): sort = 'S' "
                               "(ordering the eigenvalues) needs a select function; jaxlib's "
                               "kernel refuses it too")
    a, vec = batch + (n, n), batch + (n,)
    if x in ("f32", "f64"):
        return _results(ctx, inst, [a, a, vec, vec, batch, batch], [x, x, x, x, "s32", "s32"])
    return _results(ctx, inst, [a, a, vec, batch, batch], [x, x, x, "s32", "s32"])


def _hessenberg_rule(ctx, inst, operands):
    x, _ = _operand_types(ctx, inst, 1)
    batch, n = _square(ctx, inst, operands[0])
    _check_ilo_ihi(ctx, inst, bound_of(n))
    return _results(ctx, inst, [batch + (n, n), batch + (_less_one(n),), batch],
                    [x, x, "s32"])


def _check_ilo_ihi(ctx, inst, n: int) -> None:
    """gehrd's low and high as LAPACK takes them for an n x n matrix (1 <= low <=
    max(1, n), min(low, n) <= high <= n), else HloVerifyError. A dynamic n is checked at
    its bound here; the lowering gives LAPACK's negative info where the actual size is
    smaller than high."""
    low, high = attrs.ffi_int(inst, "low"), attrs.ffi_int(inst, "high")
    if low is None or high is None:
        raise ctx.error(f"{_target(inst)} needs the i32 attributes low and high (LAPACK's "
                        f"ilo, ihi), not {inst.attrs.get('backend_config') or 'none'}")
    if not (1 <= low <= max(1, n) and min(low, n) <= high <= n):
        raise ctx.error(f"{_target(inst)}: low = {low}, high = {high} outside 1 <= low <= "
                        f"high <= n = {n} (LAPACK's ilo, ihi)")


def _tridiagonal_rule(ctx, inst, operands):
    x, r = _operand_types(ctx, inst, 1)
    batch, n = _square(ctx, inst, operands[0])
    _char(ctx, inst, "uplo", "LU")
    less = _less_one(n)
    return _results(ctx, inst, [batch + (n, n), batch + (n,), batch + (less,),
                                batch + (less,), batch], [x, r, r, x, "s32"])


def _gtsv_rule(ctx, inst, operands):
    x, _ = _operand_types(ctx, inst, 4)
    *diagonals, b = operands
    if len(b) < 2:
        raise ctx.error(f"{_target(inst)} needs b of rank >= 2 (batch..., m, k), not "
                        f"{inst.operands[3].shape}")
    rows = b[:-1]
    for name, dims, operand in zip(("dl", "d", "du"), diagonals, inst.operands[:3], strict=True):
        joined = [unify(p, q, inst.name) for p, q in zip(dims, rows, strict=True)] \
            if len(dims) == len(rows) else [None]
        if None in joined:
            raise ctx.error(f"{_target(inst)}: dl, d and du take b's dims but its last "
                            f"([..., m] of b [..., m, k] = {inst.operands[3].shape}); {name} "
                            f"is {operand.shape}")
        rows = tuple(joined)
    return _results(ctx, inst, [rows, rows, rows, rows + b[-1:], rows[:-1]],
                    [x, x, x, x, "s32"])


for _targets, _rule in ((SCHUR_TARGETS, _schur_rule), (HESSENBERG_TARGETS, _hessenberg_rule),
                        (TRIDIAGONAL_TARGETS, _tridiagonal_rule), (GTSV_TARGETS, _gtsv_rule)):
    for _name in _targets:
        CUSTOM_CALL_RULES[_name] = _rule

"""JAX's GPU solver custom calls run by the LAPACK lowerings of the backend at hand.

shapes/rules_gpu_solver.py has the targets and their contracts. Each call runs the lowering
its LAPACK counterpart has in the backend's one custom-call table (the same function, so
both backends keep one copy of the math); only the SVDs' results need rearranging: gesvdj
and gesvdp return V (not V^H), a transposed gesvd returns vt before u, and a gesvd without
compute_uv declares u and vt rank-0.
"""

from __future__ import annotations

from ...errors import DynamicSizeError, UnsupportedError
from ...hlo import attrs
from ...shapes.rules_gpu_solver import SVD_NAMES, lapack_target, solver_name


def check_solver_call(table, inst) -> None:
    """UnsupportedError unless `table` (target -> lowering) runs the call's LAPACK
    counterpart at its element type."""
    lapack = lapack_target(inst)
    if lapack not in table:
        target = attrs.string(inst, "custom_call_target")
        kinds = sorted(t for t in table if t[:7] == lapack[:7] and t[8:] == lapack[8:])
        raise UnsupportedError(
            f"custom-call '{inst.name}' ({target}) on {inst.operands[0].shape.element_type} "
            f"stands for {lapack}, which dynhlo does not run (it runs {', '.join(kinds)})")


def call_as_lapack(table, ctx, inst, args):
    """The call's results from its LAPACK counterpart's lowering in `table`, NumPy arrays or
    torch tensors alike (NotImplemented passes through: the GPU's host tier)."""
    _check_sizes(inst, args)
    fn = table.get(lapack_target(inst))
    results = NotImplemented if fn is None else fn(ctx, inst, args)
    name = solver_name(inst)
    if results is NotImplemented or name not in SVD_NAMES:
        return results
    a, s, u, vt, info = results
    if name != "gesvd":  # Jacobi and polar: V, which JAX turns into V^H itself
        v = vt.swapaxes(-1, -2).conj()
        v = v.resolve_conj() if hasattr(v, "resolve_conj") else v  # torch's conj: a lazy view
        return a, s, u, v, info
    if not attrs.ffi_bool(inst, "compute_uv", True):
        u = vt = u.reshape(-1)[:0].sum()  # a zero of u's type, rank 0 as declared
    return (a, s, vt, u, info) if attrs.ffi_bool(inst, "transposed", False) else \
        (a, s, u, vt, info)


def _check_sizes(inst, args) -> None:
    """What the declared bounds cannot promise where the matrix dims are dynamic (the rule
    checks them statically): potrf and syevd take square matrices, orgqr k <= n <= m (more
    tau than columns, or fewer rows than columns, is an error in cuSOLVER and LAPACK)."""
    name, (m, n) = solver_name(inst), tuple(args[0].shape[-2:])
    if name in ("potrf", "syevd") and m != n:
        raise DynamicSizeError(f"instruction '{inst.name}': {name} of a {m} x {n} matrix; "
                               f"it takes square matrices")
    if name == "orgqr" and not args[1].shape[-1] <= n <= m:
        raise DynamicSizeError(f"instruction '{inst.name}': orgqr of a {m} x {n} matrix and "
                               f"{args[1].shape[-1]} tau; it needs k <= n <= m")

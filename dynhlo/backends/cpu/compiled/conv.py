"""A convolution at settled shapes as im2col and one matrix product per group: the
compiled path's specialized step for `convolution` (special.py; fast.Fast), planned once
per shape key, and its step where no spec runs (`lowering`: a shape's first call), planned
per call.

Shapes and types: lhs of any dim_labels (batch N, features C, spatial S1..Sd), kernel
(output features O, input features I, spatial K1..Kd), result (batch N / batch_group_count,
features O, spatial P1..Pd) in its own dim_labels; lhs, kernel and result of one floating
type (f16, bf16, f32, f64, c64, c128). Integer, mixed-type and other convolutions are not
planned here (gemm_plan gives None): the caller keeps the reference's computation for them,
whose integer sums wrap exactly as XLA's.

Per call (ops_linalg.run_convolution's semantics; XLA operation semantics, Conv):

1. lhs, in its own layout, copied into a zero array padded by the window's positive
   padding with lhs_dilate - 1 zeros between elements (only where the window has either;
   a negative padding is a crop: an offset into the view);
2. a strided view of it, (G, N', Cg, K1..Kd, P1..Pd) with G = feature_group_count *
   batch_group_count groups of Cg = I features (feature groups: consecutive features;
   batch groups: consecutive batch blocks of N' = N / batch_group_count, as the reference
   splits them), window taps rhs_dilate apart and outputs `stride` apart, copied into one
   dense matrix per group (im2col) in the product's type;
3. np.matmul of it with the kernel as a (Kdim = Cg*K1*..*Kd, O/G) matrix per group
   (reversed along the window_reversal dimensions), made once when the kernel is a value
   the spec holds (a constant, say);
4. the result in the output's dim_labels, C-ordered: the product's own array where its
   order is already the output's (the matrix form is picked for that: rows (n, p), columns
   o when the output's features follow its spatial dimensions, else (o) x (p) per batch
   element), else one copy.

Sums run in the result's type (f32 for f16 and bf16, then rounded), as XLA's CPU backend
computes an f32 convolution; the reference sums in f64 (c128), so results agree within
float tolerance, not bit for bit. The window matrix is made in blocks of output rows when
it would pass _BLOCK_BYTES.
"""

from __future__ import annotations

import math

import numpy as np

from ....errors import DynamicSizeError
from ....hlo.types import to_numpy_dtype
from ....shapes.windows import conv_groups, conv_labels, window_dims, window_output_size
from ..ops_linalg import convolution as reference_convolution

_BLOCK_BYTES = 1 << 22   # the largest window matrix made at once: a block of output rows
# (one made and multiplied while in cache: 45 to 21-28 ms for a 3x3 conv of 8x56x56x64)
_WORK = {"f16": np.float32, "bf16": np.float32, "f32": np.float32, "f64": np.float64,
         "c64": np.complex64, "c128": np.complex128}


def gemm_plan(inst, lhs: np.ndarray, rhs: np.ndarray, shape: tuple, held: tuple):
    """`fn(*operands passed per call)`: the convolution `inst` at lhs's and rhs's shapes as
    the module docstring says, or None where it is not planned here (types, a result of
    other sizes than `shape`). `held`: per operand, whether its value (lhs or rhs) is the
    same at every call (then what it gives is made once) rather than passed per call."""
    element = inst.shape.element_type
    work = _WORK.get(element)
    if work is None or any(o.shape.element_type != element for o in inst.operands):
        return None
    plan = _Plan.of(inst, lhs.shape, rhs.shape, shape, np.dtype(work))
    if plan is None:
        return None
    if plan.empty:
        dtype = plan.out_dtype
        return lambda *_: np.zeros(shape, dtype)
    if held[1]:
        w = plan.kernel(rhs)
        fn = (lambda: plan.run(lhs, w)) if held[0] else (lambda x: plan.run(x, w))
    elif held[0]:
        return lambda w: plan.run(lhs, plan.kernel(w))
    else:
        w = None
        fn = lambda x, w: plan.run(x, plan.kernel(w))   # noqa: E731
    # (its plan and held kernel matrix: read by the run of native calls it may join,
    # conv_member.py)
    fn.conv = (plan, w)
    return fn


def lowering(ctx, inst, args):
    """The compiled path's convolution step where no spec runs it (a shape's first call, a
    call run step by step): gemm_plan at the operands' shapes, run once; else (integers,
    mixed types, sizes that do not fit the group counts) the reference's lowering, which
    computes or raises."""
    x, w = args
    if x.__class__ is np.ndarray and w.__class__ is np.ndarray:
        fn = gemm_plan(inst, x, w, ctx.out_shape(inst), (True, True))
        if fn is not None:
            return fn()
    return reference_convolution(ctx, inst, args)


class _Plan:
    """The numbers of one convolution at settled shapes (see the module docstring)."""

    __slots__ = ("empty", "w_perm", "flips", "w_split", "w_order", "w_matrix", "pad_shape",
                 "placed", "crop", "starts", "col_axes", "col_shape", "views", "matrix", "rows",
                 "blocks", "result_shape", "out_shape", "out_dtype", "work", "direct",
                 "out_split", "out_perm", "by_batch", "spatial", "w_view")

    @staticmethod
    def of(inst, lhs_shape: tuple, rhs_shape: tuple, out_shape: tuple, work: np.dtype):
        """The plan at these shapes, summing in `work`; None where the group counts do not
        fit the sizes (the reference's lowering raises) or the result is not of
        `out_shape`."""
        rank = len(lhs_shape)
        labels = conv_labels(inst, rank)
        wins = window_dims(inst, rank - 2)
        n, c = lhs_shape[labels.lhs_batch], lhs_shape[labels.lhs_feature]
        o, i = rhs_shape[labels.rhs_out], rhs_shape[labels.rhs_in]
        try:
            groups, batch_groups = conv_groups(inst, n, c, o, i)
        except DynamicSizeError:   # the lowering raises it, naming the instruction
            return None
        taps = [rhs_shape[k] for k in labels.rhs_spatial]
        spatial = [lhs_shape[k] for k in labels.lhs_spatial]
        outs = [window_output_size(s, w, k) for s, w, k in zip(spatial, wins, taps,
                                                                 strict=True)]
        g, nb = groups * batch_groups, n // batch_groups
        if [out_shape[labels.out_batch], out_shape[labels.out_feature]] != [nb, o] or \
                [out_shape[k] for k in labels.out_spatial] != outs:
            return None
        plan = _Plan()
        plan.out_shape, plan.work = tuple(out_shape), work
        plan.out_dtype = np.dtype(to_numpy_dtype(inst.shape.element_type))
        kdim, og, cells = i * math.prod(taps), o // g, math.prod(outs)
        plan.empty = not (kdim and og and nb and cells)
        if plan.empty:
            return plan
        d = plan.spatial = rank - 2
        # the kernel: (O, I, K..) -> (G, Og, I, K..), reversed taps, -> (G, Kdim, Og)
        plan.w_perm = (labels.rhs_out, labels.rhs_in) + labels.rhs_spatial
        plan.flips = tuple(3 + k for k, w in enumerate(wins) if w.reversal)
        plan.w_split = (g, og, i) + tuple(taps)
        # features last in the lhs layout: the window matrix's columns (taps, features),
        # so its copy reads the lhs's contiguous runs; else (features, taps)
        last = labels.lhs_feature > max(labels.lhs_spatial, default=-1)
        kaxes = tuple(range(3, 3 + d)) + (2,) if last else (2,) + tuple(range(3, 3 + d))
        # the output's features after its spatial dims: rows (n, p), columns o; else
        # per batch element (o) x (p)
        plan.by_batch = labels.out_feature < max(labels.out_spatial, default=-1)
        # (I and K are at the window view's axes): (G, [K.., I], Og) or (G, Og, [K.., I])
        plan.w_order = (0, 1) + kaxes if plan.by_batch else (0,) + kaxes + (1,)
        plan.w_matrix = (g, 1, og, kdim) if plan.by_batch else (g, kdim, og)
        # whether a C-ordered kernel already is that matrix in memory order (keras'
        # (K, I, O) kernels for b0f inputs): then a call's kernel is its reshaped view
        # (the same elements as the copy, no copy)
        plan.w_view = False
        probe = np.arange(math.prod(rhs_shape), dtype=np.int64).reshape(rhs_shape)
        plan.w_view = bool(np.array_equal(plan.kernel(probe, np.int64).reshape(-1),
                                          np.arange(probe.size)))
        # step 1: padding and base dilation in lhs's own layout
        pad_shape, placed, crop, extra = list(lhs_shape), [slice(None)] * rank, \
            [slice(None)] * rank, False
        for k, s, w in zip(labels.lhs_spatial, spatial, wins, strict=True):
            dilated = (s - 1) * w.base_dilation + 1 if s else 0
            lo, hi = max(w.lo, 0), max(w.hi, 0)
            extra |= lo > 0 or hi > 0 or w.base_dilation > 1
            pad_shape[k] = lo + dilated + hi
            placed[k] = slice(lo, lo + dilated, w.base_dilation)
            crop[k] = slice(max(-w.lo, 0), None)
        plan.pad_shape = tuple(pad_shape) if extra else None
        plan.placed, plan.crop = tuple(placed), tuple(crop)
        # step 2: the windows view (G, N', Cg, K.., P..), its axes ordered as the window
        # matrix's (col_perm); each axis's stride is one of x's (batch, feature, spatial)
        # times a group size, dilation or stride (`axes`: (x's dim, factor) per axis)
        lb, lf, ls = labels.lhs_batch, labels.lhs_feature, labels.lhs_spatial
        view_shape = (g, nb, i) + tuple(taps) + tuple(outs)
        axes = [(lb, nb) if batch_groups > 1 else (lf, i), (lb, 1), (lf, 1)]
        axes += [(k, w.window_dilation) for k, w in zip(ls, wins, strict=True)]
        axes += [(k, w.stride) for k, w in zip(ls, wins, strict=True)]
        paxes = tuple(range(3 + d, 3 + 2 * d))
        if plan.by_batch:   # (G, N', [K..,Cg], P..) -> (G, N', Kdim, cells)
            col_perm = (0, 1) + kaxes + paxes
            plan.matrix = (g, nb, kdim, cells)
            plan.result_shape = (g, nb, og) + tuple(outs)
            res_labels = ["g", "b", "o"] + [f"s{k}" for k in range(d)]
        else:               # (G, N', P.., [K..,Cg]) -> (G, N' * cells, Kdim)
            col_perm = (0, 1) + paxes + kaxes
            plan.matrix = (g, nb * cells, kdim)
            plan.result_shape = (g, nb) + tuple(outs) + (og,)
            res_labels = ["g", "b"] + [f"s{k}" for k in range(d)] + ["o"]
        plan.col_shape = tuple(view_shape[k] for k in col_perm)
        plan.col_axes = tuple(axes[k] for k in col_perm)
        plan.starts = tuple((k, w.lo) for k, w in zip(ls, wins, strict=True) if w.lo < 0)
        plan.views = {}
        # blocks along the first output spatial dimension when the matrix is large
        rows = outs[0] if d else 1
        per_row = g * nb * kdim * (cells // max(rows, 1)) * work.itemsize
        plan.rows = rows
        plan.blocks = max(1, min(rows, -(-per_row * rows // _BLOCK_BYTES))) if d else 1
        # step 4: the output's dims with its features split (G, Og)
        out_labels, split = [], []
        for k, size in enumerate(out_shape):
            if k == labels.out_feature:
                out_labels += ["g", "o"]
                split += [g, og]
            else:
                out_labels.append("b" if k == labels.out_batch else
                                  f"s{labels.out_spatial.index(k)}")
                split.append(size)
        plan.out_split = tuple(split)
        plan.out_perm = tuple(out_labels.index(lab) for lab in res_labels)
        keep = [lab for lab in res_labels if lab != "g" or g > 1]
        plan.direct = keep == [lab for lab in out_labels if lab != "g" or g > 1]
        return plan

    def kernel(self, w: np.ndarray, work=None) -> np.ndarray:
        """The kernel as the product's operand in the work type (`work`: another, for
        of's probe): (G, Kdim, Og), or (G, 1, Og, Kdim) by batch element (the same for
        each); only read."""
        if self.w_view and w.dtype == self.work and w.flags.c_contiguous:
            return w.reshape(self.w_matrix)
        w = w.transpose(self.w_perm).reshape(self.w_split)
        for axis in self.flips:
            w = np.flip(w, axis=axis)
        return np.ascontiguousarray(w.transpose(self.w_order),
                                    self.work if work is None else work).reshape(
            self.w_matrix)

    def run(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        """The convolution of lhs `x` (the planned shape) with the prepared kernel `w`."""
        if self.pad_shape is not None:
            padded = np.zeros(self.pad_shape, self.work)
            padded[self.placed] = x
            x = padded
        view = self._windows(x)
        if self.blocks == 1:
            # a dense copy (a view would hand matmul gapped strides: its slow loop)
            cols = np.ascontiguousarray(view, self.work).reshape(self.matrix)
            product = np.matmul(w, cols) if self.by_batch else np.matmul(cols, w)
        else:
            product = self._blocked(view, w)
        if self.direct:   # (the product's C order is the output's)
            product = product.reshape(self.out_shape)
            return product if product.dtype == self.out_dtype else \
                product.astype(self.out_dtype)
        out = np.empty(self.out_shape, self.out_dtype)
        np.copyto(out.reshape(self.out_split).transpose(self.out_perm),
                  product.reshape(self.result_shape), casting="unsafe")
        return out

    def _windows(self, x: np.ndarray) -> np.ndarray:
        """The view of lhs x (padded; only read) whose elements, in order, are the window
        matrix's (col_shape): a view over x's memory at the crop's offset, its strides
        worked out once per layout of x."""
        st = x.strides
        known = self.views.get(st)
        if known is None:
            offset = sum(-lo * st[k] for k, lo in self.starts)
            known = (offset, tuple(st[k] * factor for k, factor in self.col_axes))
            if len(self.views) < 8:   # a few layouts of x (a transpose's view, a copy)
                self.views[st] = known
        offset, strides = known
        if x.flags.c_contiguous:   # the ndarray constructor: ~10x cheaper than as_strided
            view = np.ndarray(self.col_shape, x.dtype, x, offset, strides)
        else:
            view = np.lib.stride_tricks.as_strided(x[self.crop], self.col_shape, strides,
                                                   writeable=False)
        return view

    def _blocked(self, view: np.ndarray, w: np.ndarray) -> np.ndarray:
        """The product in blocks of the first output spatial dimension, each block's window
        matrix made and multiplied on its own."""
        product = np.empty(self.result_shape, self.work)
        # the first output spatial axis of the (permuted) view and of the product
        col_axis = 2 + (self.spatial + 1 if self.by_batch else 0)
        axis = 3 if self.by_batch else 2
        kdim = self.matrix[2]
        step = -(-self.rows // self.blocks)
        for start in range(0, self.rows, step):
            stop = min(start + step, self.rows)
            part = view[(slice(None),) * col_axis + (slice(start, stop),)]
            cols = np.empty(part.shape, self.work)
            np.copyto(cols, part, casting="unsafe")
            g, nb = cols.shape[:2]
            if self.by_batch:
                block = np.matmul(w, cols.reshape(g, nb, kdim, -1))
            else:
                block = np.matmul(cols.reshape(g, -1, kdim), w)
            target = product[(slice(None),) * axis + (slice(start, stop),)]
            target[...] = block.reshape(target.shape)
        return product

"""Running a graph program: one CUDA graph, captured once, replayed for every size.

Per call the host does four things: gathers the sizes from the arguments' shapes (computing
those the program derives from them, sizes.py) into the size buffer (one host-to-device
copy), copies each dynamic-size argument into its static
buffer at the bound (one device copy each), replays the graph, and copies the root out of
its static buffer (the next replay overwrites it). Static-size arguments are read where
they are: the graph is captured for their addresses (kept alive by a reference), and a
call with other tensors captures again (at most MAX_GRAPHS kept); NumPy arguments and
tensors the kernels cannot read in place (unaligned, strided, on another device) are
copied into static buffers instead, so they never cause a capture.

In Triton's interpreter (no CUDA) the same steps run directly at every call: the tests of
the graph path check the strided kernels, the size buffer and the buffer plan on the CPU.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict

import torch

from ....errors import DynamicSizeError
from ..compile.cubins import step_specs
from ..launch.launcher import step_launchers
from ..mode import cuda_present
from ..tensors import to_device, torch_dtype
from ...plan.buffers import assign, bound_bytes
from .sizes import size_of

MAX_GRAPHS = 8
GRID_WAVES = 8        # programs per multiprocessor, at most, in a strided grid
INTERPRET_GRID = 3    # programs in the interpreter: small, so the stride loop is exercised
STREAMS = 3           # streams a capture spreads independent launches over


class GraphCaptureError(RuntimeError):
    """Capturing failed (the driver refused a call inside the capture): nothing ran, the
    program falls back to its plain path."""


class GraphRunner:
    """Static buffers, launchers and captured graphs of one GraphProgram."""

    copies_results = True   # every result is a copy out of the static buffers

    def __init__(self, prog, device: torch.device, interpret: bool, launchers: dict | None):
        self.prog, self.device, self.interpret = prog, device, interpret
        self.launchers = self._launchers(launchers or {})
        cap = INTERPRET_GRID if interpret else GRID_WAVES * torch.cuda.get_device_properties(
            device).multi_processor_count
        self.grids = [max(1, min(step.bound_work, cap)) for step in prog.steps]
        self.values: dict = {}
        self._allocate()
        self._size_tables()
        self.fixed = [all(isinstance(g, int) for g in prog.dims[slot])
                      for slot in range(prog.nparams)]
        self.param_dtypes = [torch_dtype(prog.dtypes[slot]) for slot in range(prog.nparams)]
        self.graphs: OrderedDict = OrderedDict()
        self.lock = threading.Lock()
        self.bound_key = None
        self.stream = None

    def _size_tables(self) -> None:
        """The size buffer is `where(dynamic, vals[which], const)`: a call writes only
        `vals`, the few distinct sizes (argument dimensions and sizes computed from them,
        sizes.py: a fill each, no host-to-device copy that would wait for the device), and
        the graph expands them itself."""
        index = self.prog.size_index
        self.distinct = list(dict.fromkeys(g for g in index if not isinstance(g, int)))
        pos = {g: k for k, g in enumerate(self.distinct)}
        dev = self.device
        self.vals = torch.zeros(max(len(self.distinct), 1), dtype=torch.int32, device=dev)
        self.which = torch.tensor([0 if isinstance(g, int) else pos[g] for g in index],
                                  dtype=torch.int64, device=dev)
        self.dynamic = torch.tensor([not isinstance(g, int) for g in index], device=dev)
        self.const = torch.tensor([g if isinstance(g, int) else 0 for g in index],
                                  dtype=torch.int32, device=dev)
        self.sizes = torch.zeros(len(index), dtype=torch.int32, device=dev)

    def _launchers(self, given: dict) -> list:
        """One launcher per step (launch/launcher.py's step_launchers): the cubins given
        (AOT) by key, Triton's JIT in the interpreter, else each distinct kernel compiled
        once, concurrently, before the first capture."""
        prog = self.prog
        if self.interpret or not cuda_present():
            cc = 90
        else:
            major, minor = torch.cuda.get_device_capability(self.device)
            cc = major * 10 + minor
        return step_launchers([step.kernel for step in prog.steps], lambda: step_specs(prog),
                              [step.key for step in prog.steps], given, self.interpret, cc)

    def _allocate(self) -> None:
        prog = self.prog
        keep = set(prog.root) if isinstance(prog.root, tuple) else {prog.root}
        where, sizes, before = assign(prog.steps, bound_bytes(prog), keep)
        self.deps = _dependencies(prog.steps, before)
        buffers = [torch.empty(n, dtype=torch.uint8, device=self.device) for n in sizes]
        for slot, buf in where.items():
            self.values[slot] = _typed(buffers[buf], prog.dtypes[slot], prog.bound_numel[slot])
        for slot, inst in prog.constants.items():
            self.values[slot] = to_device(inst.literal, self.device, inst.shape.element_type
                                          ).reshape(-1)
        self.statics: dict = {}   # parameter slot -> its static buffer, made on first need

    def _static(self, slot: int) -> torch.Tensor:
        buf = self.statics.get(slot)
        if buf is None:
            prog = self.prog
            buf = self.statics[slot] = torch.empty(
                max(prog.bound_numel[slot], 1), dtype=torch_dtype(prog.dtypes[slot]),
                device=self.device)
        return buf

    # --- a call ---------------------------------------------------------------------------

    def run(self, tensors: list, shapes: list, in_place=True):
        """The root for argument tensors (any device) of the given actual shapes;
        `in_place` (one bool, or one per argument) is False for tensors made for this call
        only: they are copied into static buffers, never captured by address."""
        prog = self.prog
        memo: dict = {}   # the computed sizes' nodes, evaluated once per call
        for a, b, what in prog.equal:
            x, y = size_of(a, shapes, memo), size_of(b, shapes, memo)
            if x != y:
                raise DynamicSizeError(f"{what} has run-time size {x}, but must equal {y} "
                                       "here; sizes that meet in one op must agree")
        sizes = [size_of(g, shapes, memo) for g in self.distinct]   # before any launch
        with self.lock:  # one call at a time: the buffers are the executable's, not the call's
            if not self.interpret:
                self._follow_stream()
            vals = self.vals
            for k, n in enumerate(sizes):
                vals[k].fill_(n)
            key, args = self._arguments(tensors, shapes, in_place)
            if self.interpret:
                self._bind(key, args)
                self._launch_all()
            else:
                self._replay(key, args)
            return self._root(prog.root, shapes, memo)

    def _follow_stream(self) -> None:
        """A call on another stream than the last waits for the last call's work there
        (its replay and the copy of its result out of the shared buffers)."""
        stream = torch.cuda.current_stream(self.device)
        if self.stream is not None and stream != self.stream:
            stream.wait_stream(self.stream)
        self.stream = stream

    def _arguments(self, tensors: list, shapes: list, in_place) -> tuple:
        """Static buffers filled; (graph key, tensors read in place) for the rest."""
        key, fixed, dtypes = [], self.fixed, self.param_dtypes
        every = in_place if in_place.__class__ is bool else None
        for slot, t in enumerate(tensors):
            if fixed[slot] and (every if every is not None else in_place[slot]):
                ptr = t.data_ptr()
                if not ptr & 15 and t.dtype is dtypes[slot] and t.is_contiguous():
                    key.append(ptr)
                    continue
            buf = self._static(slot)
            n = math.prod(shapes[slot])
            if n:
                buf[:n].copy_(t.reshape(-1), non_blocking=t.device.type == "cpu")
            key.append(-1 - slot)
        return tuple(key), tensors

    def _launch_all(self) -> None:
        values, sizes = self.values, self.sizes
        sizes.copy_(torch.where(self.dynamic, self.vals.index_select(0, self.which),
                                self.const))
        for k, (step, grid) in enumerate(zip(self.prog.steps, self.grids, strict=True)):
            tensors = [values[s] for s in step.inputs]
            tensors.append(values[step.out])
            tensors.append(sizes[step.size_offset:])
            self.launchers[k]((grid,), tensors, [])

    def _bind(self, key: tuple, args: list) -> None:
        """Each parameter slot's tensor: the argument itself, or its static buffer."""
        for slot, k in enumerate(key):
            self.values[slot] = args[slot].reshape(-1) if k >= 0 else self.statics[slot]
        self.bound_key = key

    def _replay(self, key: tuple, args: list) -> None:
        entry = self.graphs.get(key)
        if entry is None:
            self._bind(key, args)
            refs = [a for a, k in zip(args, key,
                                      strict=True) if k >= 0]  # read in place: kept alive
            try:
                graph = self._capture()
            except Exception as exc:  # noqa: BLE001  (torch's, CuPy's or Triton's errors)
                raise GraphCaptureError(str(exc).splitlines()[0] if str(exc) else
                                        type(exc).__name__) from exc
            entry = self.graphs[key] = (graph, refs)
            if len(self.graphs) > MAX_GRAPHS:
                self.graphs.popitem(last=False)
        else:
            self.graphs.move_to_end(key)
            if key != self.bound_key:  # the root may be a parameter read in place
                self._bind(key, args)
        entry[0].replay()

    def _capture(self) -> "torch.cuda.CUDAGraph":
        """Launch once outside (Triton compiles on a first launch), then capture with
        independent launches on separate streams: the graph runs them concurrently."""
        side = torch.cuda.Stream(self.device)
        side.wait_stream(torch.cuda.current_stream(self.device))
        with torch.cuda.stream(side):
            self._launch_all()
        torch.cuda.current_stream(self.device).wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            self._launch_concurrent()
        return graph

    def _launch_concurrent(self) -> None:
        """_launch_all's launches, each on a stream that continues one of its
        dependencies' chains (else the least recently used), waiting for the others."""
        main = torch.cuda.current_stream(self.device)
        values, sizes = self.values, self.sizes
        sizes.copy_(torch.where(self.dynamic, self.vals.index_select(0, self.which),
                                self.const))
        streams = [main] + [torch.cuda.Stream(self.device) for _ in range(STREAMS - 1)]
        for s in streams[1:]:
            s.wait_stream(main)
        tail = [None] * len(streams)       # the last step launched on each stream
        on, events = {}, {}
        for k, (step, grid) in enumerate(zip(self.prog.steps, self.grids, strict=True)):
            deps = self.deps[k]
            chain = [i for i, t in enumerate(tail) if t in deps]
            i = chain[0] if chain else min(range(len(streams)),
                                          key=lambda j: -1 if tail[j] is None else tail[j])
            stream = streams[i]
            for d in deps:
                if on[d] != i:
                    stream.wait_event(events[d])
            tensors = [values[s] for s in step.inputs]
            tensors.append(values[step.out])
            tensors.append(sizes[step.size_offset:])
            with torch.cuda.stream(stream):
                self.launchers[k]((grid,), tensors, [])
            events[k] = torch.cuda.Event()
            events[k].record(stream)
            on[k], tail[i] = i, k
        for s in streams[1:]:
            main.wait_stream(s)

    def _root(self, root, shapes, memo: dict):
        if isinstance(root, tuple):
            return tuple(self._root(r, shapes, memo) for r in root)
        shape = tuple(size_of(g, shapes, memo) for g in self.prog.dims[root])
        return self.values[root][:math.prod(shape)].view(shape).clone()


def _dependencies(steps: list, before: dict) -> list:
    """Per step, the earlier steps it must follow: the producers of its inputs, and the
    producer and readers of the value that held its output buffer before it. A value
    written by several steps (attention's two tile kernels, of which one does the work)
    is read after the last, and each writer follows the one before and its readers."""
    producer: dict = {}
    readers: dict = {}
    out = []
    for k, step in enumerate(steps):
        deps = {producer[s] for s in step.inputs if s in producer}
        prev = step.out if step.out in producer else before.get(step.out)
        if prev is not None:
            deps.add(producer[prev])
            deps.update(readers.get(prev, ()))
        out.append(deps)
        for s in step.inputs:
            readers.setdefault(s, []).append(k)
        producer[step.out] = k
    return out


def _typed(buf: torch.Tensor, element_type: str, numel: int) -> torch.Tensor:
    dtype = torch_dtype(element_type)
    width = torch.empty((), dtype=dtype).element_size()
    return buf[:max(numel, 1) * width].view(dtype)

"""Running a segmented plan (segments.py): captured segments and host steps, in order.

Per call one walk holds every value made so far by instruction, as the plain Runner does:
a segment reads its inputs from there (entry arguments in place when the caller owns
them; values made in this call are copied into the segment's static buffers, never
captured by address), replays through its GraphRunner and puts its exports back; host
steps run through Runner.run_steps with one SizeEnv over the same values, so a size read
from a value, a loop's predicate and an error naming an instruction work as on the plain
path.
"""

from __future__ import annotations

from ....hlo.opcodes import Opcode
from ....shapes.sizes import SizeEnv
from .runner import GraphRunner
from .segments import Segment
from .sizes import size_of


class SegmentedRunner:
    """Segments captured as CUDA graphs (GraphRunner each) between host steps."""

    # Results may be the plain path's values (a host step's, or an argument itself):
    # the program makes copies of those it shares (program._unshared).
    copies_results = False

    def __init__(self, segmented, plan, runner, device, interpret: bool):
        """`segmented` (segments.Segmented) of `plan`, the entry plan that `runner`
        (launch.runner.Runner) runs the host steps of."""
        self.segmented, self.plan, self.runner = segmented, plan, runner
        self.items = [(item, GraphRunner(item.prog, device, interpret, None))
                      if isinstance(item, Segment) else (item.steps, None)
                      for item in segmented.items]
        self.root = plan.info.computation.root

    @property
    def graphs(self) -> dict:
        """Every segment's captured graphs, by (segment, GraphRunner key)."""
        return {(k, key): entry for k, (_, runner) in enumerate(self.items)
                if runner is not None for key, entry in runner.graphs.items()}

    def run(self, tensors: list, shapes: list, in_place=True):
        """The entry root for argument tensors (on the device) of the given actual shapes;
        `in_place` (one bool, or one per argument) as GraphRunner.run's."""
        values: dict = {}
        env = SizeEnv([tuple(s) for s in shapes], values.__getitem__, None, xla_rules=True)
        owned = [in_place] * len(tensors) if in_place.__class__ is bool else in_place
        for item, graph in self.items:
            if graph is None:
                self.runner.run_steps(self.plan, item, tensors, values, env)
            else:
                _replay(item, graph, values, owned)
        return values[self.root]


def _replay(segment: Segment, graph: GraphRunner, values: dict, owned: list) -> None:
    args = [values[inst] for inst in segment.inputs]
    shapes = [tuple(a.shape) for a in args] + [tuple(values[inst].shape)
                                               for inst in segment.sources]
    in_place = [inst.opcode is Opcode.PARAMETER and owned[inst.parameter_number]
                for inst in segment.inputs]
    outs = graph.run(args, shapes, in_place)
    for inst, out, dims in zip(segment.exports, outs, segment.shapes, strict=True):
        values[inst] = out if dims is None else out.reshape([size_of(g, shapes) for g in dims])

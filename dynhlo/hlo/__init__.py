"""The HLO IR layer: element types, shapes, opcodes, instructions, text parser and printer."""

from .ir import Computation, HloModule, Instruction, modules_equal
from .opcodes import OP_SPECS, Group, Opcode, OpSpec, Trait
from .text.parser import parse_hlo
from .text.printer import print_module
from .shape import UNBOUNDED, AnyShape, Layout, Shape, TupleShape

__all__ = ["Computation", "HloModule", "Instruction", "modules_equal", "OP_SPECS", "Group",
           "Opcode", "OpSpec", "Trait", "parse_hlo", "print_module", "UNBOUNDED", "AnyShape",
           "Layout", "Shape", "TupleShape"]

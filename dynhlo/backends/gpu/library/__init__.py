"""Torch calls on the device, one file per opcode family (the families of
dynhlo/shapes/rules_*.py and dynhlo/backends/cpu/ops_*.py): `fn(ctx, inst, args)` returns
the value, or NotImplemented for a case it does not cover (then the host tier runs it).
apply.py runs scalar computations (to_apply, comparators) elementwise on tensors."""

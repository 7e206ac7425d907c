"""HLO group -> Triton source text: code generation (codegen.py), the emitters per opcode
family (elementwise.py, data.py), reductions, element types and the `M` math helpers the
generated source imports (kmath/). Plain text and data: no torch, no device."""

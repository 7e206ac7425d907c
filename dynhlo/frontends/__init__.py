"""Frontends: programs from elsewhere as dynhlo HloModules, with sizes never baked in.

    jax.py         dynhlo.from_jax: jax.export with symbolic sizes, then the StableHLO import
    stablehlo/     dynhlo.parse_stablehlo: MLIR text / bytecode / portable artifact -> HloModule
                   (__init__.py; convert.py walks it; ops, dynamic, regions, chlo, misc hold the
                   op rules; shape_exprs.py follows the size arithmetic)
    mlir_load.py   StableHLO read through jaxlib's MLIR bindings (mlir_bytecode_child.py
                   reads untrusted bytecode in a child process); shared by stablehlo/, jax.py,
                   torch.py and proto.py
    proto.py       HloModuleProto, binary and text, through jaxlib's xla_client
    tf/            dynhlo.from_tf: TensorFlow lowered once with its own dynamic sizes
                   (dynamic.py; where.py reads Where's blocks whole), else at several sizes,
                   the moving dims marked (../lowering_diff.py compares; rewrites, sizes,
                   lengths, folded, random, threefry rewrite; requirements states
                   TensorFlow's least sizes; literal_proto.py reads its elided constants)
    dumps.py       dynhlo.bound_from_dumps: two HLO dumps made one bounded module
                   (lowering_diff.py's rules)
    files.py       which reader a module file needs (the CLI's .mlir/.mlirbc/.pb/.pbtxt)

jax, jaxlib and tensorflow are optional: each entry point imports them when called and says
what to install when they are missing. This package sits above runtime/ (it compiles), beside
the CLI; nothing below imports it.
"""

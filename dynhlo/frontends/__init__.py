"""Frontends: programs from elsewhere as dynhlo HloModules, with sizes never baked in.

    jax.py         dynhlo.from_jax: jax.export with symbolic sizes, then the StableHLO import
    stablehlo.py   dynhlo.parse_stablehlo: MLIR text / bytecode / portable artifact -> HloModule
                   (stablehlo_convert.py walks it; stablehlo_ops, _dynamic, _regions, _chlo,
                   _misc hold the op rules; shape_exprs.py follows the size arithmetic)
    proto.py       HloModuleProto, binary and text, through jaxlib's xla_client
    tf.py          dynhlo.from_tf: TensorFlow lowered once with its own dynamic sizes
                   (tf_dynamic; tf_where reads Where's blocks whole), else at several sizes,
                   the moving dims marked (lowering_diff.py compares; tf_rewrites, _sizes,
                   _lengths, _folded, _random, _threefry rewrite; tf_requirements states
                   TensorFlow's least sizes)
    files.py       which reader a module file needs (the CLI's .mlir/.mlirbc/.pb/.pbtxt)

jax, jaxlib and tensorflow are optional: each entry point imports them when called and says
what to install when they are missing. This package sits above runtime/ (it compiles), beside
the CLI; nothing below imports it.
"""

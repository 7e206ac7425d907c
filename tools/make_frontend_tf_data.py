"""Regenerate the HloModuleProto files of tests/data/frontends/ (run with /work/venv-tf's python).

masked_sum.pb     tf.function(jit_compile=True) of sum(boolean_mask(x, x > 0)) * 2 at x: f32[8]:
                  tf2xla's own bounded dims (`<=8`) inside, HloModuleProto binary
masked_sum.pbtxt  the same proto in protobuf's text form, wrapped as an HloProto (`hlo_module {`)
"""

import pathlib

import numpy as np
import tensorflow as tf
from google.protobuf import text_format
from tensorflow.compiler.xla.service import hlo_pb2

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "frontends"


def masked_sum(x):
    return tf.reduce_sum(tf.boolean_mask(x, x > 0)) * 2.0, tf.boolean_mask(x, x > 0)


def main():
    fn = tf.function(masked_sum, jit_compile=True)
    blob = fn.experimental_get_compiler_ir(np.zeros(8, np.float32))(stage="hlo_serialized")
    (OUT / "masked_sum.pb").write_bytes(blob)
    module = hlo_pb2.HloModuleProto.FromString(blob)
    for comp in module.computations:  # drop source paths from the metadata: smaller, stable
        for inst in comp.instructions:
            inst.ClearField("metadata")
    wrapped = hlo_pb2.HloProto(hlo_module=module)
    (OUT / "masked_sum.pbtxt").write_text(text_format.MessageToString(wrapped))
    (OUT / "masked_sum.pb").write_bytes(module.SerializeToString())


if __name__ == "__main__":
    main()

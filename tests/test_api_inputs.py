"""The API's entry points take what a user would pass and refuse the rest with DynHloErrors."""

import numpy as np
import pytest

import dynhlo

SEED = "HloModule m\nENTRY e {\n  a = f32[<=4,2]{1,0} parameter(0)\n  ROOT b = f32[<=4,2]{0,1} copy(a)\n}\n"
UNBOUNDED = "HloModule m\nENTRY e {\n  ROOT a = f32[?] parameter(0)\n}\n"


@pytest.mark.parametrize("text", [SEED, SEED.encode()])
def test_compile_and_jit_take_text_as_str_or_bytes(text):
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    np.testing.assert_array_equal(dynhlo.compile(text)(x), x)
    np.testing.assert_array_equal(dynhlo.jit(text, cache_dir=False)(x), x)


@pytest.mark.parametrize("entry", [dynhlo.compile, dynhlo.jit])
@pytest.mark.parametrize("value", [None, 3, ["HloModule"]])
def test_compile_and_jit_refuse_non_modules(entry, value):
    with pytest.raises(dynhlo.DynHloError, match="takes an HloModule or HLO text"):
        entry(value)


@pytest.mark.parametrize("value", [None, "abc", 3])
def test_deserialize_refuses_non_bytes(value):
    with pytest.raises(dynhlo.ArtifactError, match="takes the bytes of an artifact"):
        dynhlo.deserialize(value)


def test_deserialize_takes_bytearray():
    blob = dynhlo.compile(SEED).serialize()
    x = np.ones((2, 2), np.float32)
    np.testing.assert_array_equal(dynhlo.deserialize(bytearray(blob))(x), x)


@pytest.mark.parametrize("buckets", ["abc", "128", [None], ["x"], [0], []])
def test_malformed_bucket_lists_are_unsupported_errors(buckets):
    with pytest.raises(dynhlo.UnsupportedError, match="buckets must be"):
        dynhlo.compile(UNBOUNDED, buckets=buckets)

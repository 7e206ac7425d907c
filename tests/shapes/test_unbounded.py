"""Unbounded (`?`) dimensions: the bound-unbounded pass, bucket policies, explicit bounds, the
JIT over sizes 1..1000 and an AOT artifact with buckets 128/1024. Values against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.passes.bound_unbounded import bound_unbounded
from dynhlo import stats
from dynhlo.runtime.buckets import BucketPolicy, next_power_of_two, resolve_bounds

SOFTMAX = """HloModule softmax_unbounded, \
entry_computation_layout={(f32[?,64]{1,0})->f32[?,64]{1,0}}

max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}

add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  x.1 = f32[?,64]{1,0} parameter(0)
  ninf = f32[] constant(-inf)
  rmax = f32[?]{0} reduce(x.1, ninf), dimensions={1}, to_apply=max_f32
  bmax = f32[?,64]{1,0} broadcast(rmax), dimensions={0}
  sub = f32[?,64]{1,0} subtract(x.1, bmax)
  e = f32[?,64]{1,0} exponential(sub)
  zero = f32[] constant(0)
  rsum = f32[?]{0} reduce(e, zero), dimensions={1}, to_apply=add_f32
  bsum = f32[?,64]{1,0} broadcast(rsum), dimensions={0}
  ROOT out = f32[?,64]{1,0} divide(e, bsum)
}
"""

CONCAT = """HloModule concat
ENTRY main {
  x = f32[?,3] parameter(0)
  y.7 = f32[?,3] parameter(1)
  c = f32[?,3] concatenate(x, y.7), dimensions={0}
  ROOT n = f32[?,3] negate(c)
}
"""


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def rows(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed + n).normal(size=(n, 64)).astype(np.float32)


def test_pass_bounds_parameters_intermediates_and_entry_layout():
    module = dynhlo.parse_hlo(SOFTMAX)
    bounded = bound_unbounded(module, bucket=128)
    text = bounded.to_text()
    assert "?" not in text
    assert "entry_computation_layout={(f32[<=128,64]{1,0})->f32[<=128,64]{1,0}}" in text
    assert "rsum = f32[<=128]{0} reduce(e, zero)" in text
    assert "ROOT out = f32[<=128,64]{1,0} divide(e, bsum)" in text
    assert module == dynhlo.parse_hlo(SOFTMAX), "the pass must not modify its input"


def test_pass_derives_intermediate_bounds_and_takes_per_dimension_bounds():
    bounded = bound_unbounded(dynhlo.parse_hlo(CONCAT), bounds={0: {0: 4}, 1: {0: 6}})
    assert bounded.to_text().splitlines()[3:] == [
        "  x = f32[<=4,3] parameter(0)",
        "  y.7 = f32[<=6,3] parameter(1)",
        "  c = f32[<=10,3] concatenate(x, y.7), dimensions={0}",
        "  ROOT n = f32[<=10,3] negate(c)",
        "}"]


def test_pass_refuses_a_dimension_without_bound():
    with pytest.raises(dynhlo.UnsupportedError, match=r"parameter 1 'y.7' dimension 0 is "
                       r"unbounded .*bounds=\{'y.7': \{0: 1024\}\}.*--bound y.7:0=1024"):
        bound_unbounded(dynhlo.parse_hlo(CONCAT), bounds={0: {0: 4}})


@pytest.mark.parametrize("size, bucket", [(0, 1), (1, 1), (2, 2), (3, 4), (64, 64), (65, 128),
                                          (1000, 1024), (1024, 1024), (1025, 2048)])
def test_power_of_two_buckets(size, bucket):
    assert next_power_of_two(size) == bucket
    assert BucketPolicy().pick(size) == bucket


def test_bucket_list_picks_the_smallest_that_fits():
    policy = BucketPolicy([1024, 128, 128])
    assert policy.buckets == [128, 1024]
    assert [policy.pick(n) for n in (0, 128, 129, 1024, 1025)] == [128, 128, 1024, 1024, None]
    with pytest.raises(dynhlo.UnsupportedError, match="sizes >= 1"):
        BucketPolicy([0, 4])
    with pytest.raises(dynhlo.UnsupportedError, match="'grow' is not one of error, compile"):
        BucketPolicy([4], overflow="grow")


def test_jit_overflow_policy_compile_adds_a_power_of_two_bucket():
    f = dynhlo.jit(SOFTMAX, buckets=[8, 32], overflow="compile", cache_dir=False)
    for n in (3, 33, 64, 65):
        np.testing.assert_allclose(f(rows(n)), softmax(rows(n)), rtol=1e-5, atol=1e-7)
    assert (f.compilations, f.buckets) == (3, [8, 64, 128])


def test_bounds_name_parameters_with_or_without_suffix_or_by_number():
    module = dynhlo.parse_hlo(CONCAT)
    assert resolve_bounds(module, {"x": {0: 4}, "y": {"0": 6}}) == {0: {0: 4}, 1: {0: 6}}
    assert resolve_bounds(module, {"y.7": {0: 6}, 0: {0: 2}}) == {1: {0: 6}, 0: {0: 2}}
    with pytest.raises(dynhlo.ArgumentError, match="'z' names no parameter.*x, y.7"):
        resolve_bounds(module, {"z": {0: 4}})
    with pytest.raises(dynhlo.ArgumentError, match="dimension 1, which is not unbounded"):
        resolve_bounds(module, {"x": {1: 4}})


def test_jit_runs_sizes_1_to_1000_with_11_compilations():
    f = dynhlo.jit(SOFTMAX, cache_dir=False)
    before = stats.snapshot().get("compile", 0)
    for n in range(1, 1001):
        x = rows(n)
        np.testing.assert_allclose(f(x), softmax(x), rtol=1e-5, atol=1e-7)
    assert f.compilations == 11
    assert stats.snapshot().get("compile", 0) - before == 11
    assert f.buckets == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]


def test_jit_size_zero_shares_bucket_one():
    f = dynhlo.jit(SOFTMAX, cache_dir=False)
    assert f(np.zeros((0, 64), np.float32)).shape == (0, 64)
    np.testing.assert_allclose(f(rows(1)), softmax(rows(1)), rtol=1e-6)
    assert (f.compilations, f.buckets) == (1, [1])


def test_jit_with_a_bucket_list_refuses_sizes_over_the_largest():
    f = dynhlo.jit(SOFTMAX, buckets=[8, 32], cache_dir=False)
    for n in (1, 8, 9, 32):
        np.testing.assert_allclose(f(rows(n)), softmax(rows(n)), rtol=1e-5, atol=1e-7)
    assert (f.compilations, f.buckets) == (2, [8, 32])
    with pytest.raises(dynhlo.ArgumentError) as info:
        f(rows(33))
    assert (info.value.parameter, info.value.dimension, info.value.size, info.value.bound) == (
        0, 0, 33, 32)


@pytest.fixture(scope="module")
def aot_softmax(tmp_path_factory):
    """An artifact with buckets 128 and 1024, saved and loaded back."""
    path = tmp_path_factory.mktemp("aot") / "softmax.dynhlo"
    dynhlo.compile(SOFTMAX, buckets=[128, 1024]).save(path)
    return dynhlo.load(path)


@pytest.mark.parametrize("n", [0, 1, 2, 127, 128, 129, 500, 1023, 1024])
def test_aot_buckets_serve_sizes_up_to_1024(aot_softmax, n):
    before = stats.snapshot()
    np.testing.assert_allclose(aot_softmax(rows(n)), softmax(rows(n)), rtol=1e-5, atol=1e-7)
    assert stats.snapshot() == before
    assert aot_softmax.policy.pick(n) == (128 if n <= 128 else 1024)


def test_aot_buckets_refuse_1025_clearly(aot_softmax):
    with pytest.raises(dynhlo.ArgumentError) as info:
        aot_softmax(rows(1025))
    assert str(info.value) == ("parameter 0 'x.1' dimension 0 has size 1025 > the largest "
                               "bucket 1024 (buckets 128, 1024); compile with a bucket of at "
                               "least 1025")
    assert (info.value.parameter, info.value.name, info.value.dimension, info.value.size,
            info.value.bound) == (0, "x.1", 0, 1025, 1024)


def test_explicit_bounds_and_buckets_together():
    exe = dynhlo.compile(CONCAT, bounds={"x": {0: 4}}, buckets=[2, 8])
    assert exe.bucket_dims == [(1, 0)]
    assert exe.options == {"backend": "cpu", "bounds": {"x": {"0": 4}}, "buckets": [2, 8]}
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = np.ones((7, 3), np.float32)
    np.testing.assert_array_equal(exe(x, y), -np.concatenate([x, y]))
    with pytest.raises(dynhlo.ArgumentError, match="size 5 > bound 4"):
        exe(np.zeros((5, 3), np.float32), y)
    loaded = dynhlo.deserialize(exe.serialize())
    np.testing.assert_array_equal(loaded(x, y[:1]), -np.concatenate([x, y[:1]]))


@pytest.mark.parametrize("bounds", [None, {"x": {0: 16}}])
def test_buckets_with_no_unbounded_dimension_left_are_refused(bounds):
    """Buckets were silently ignored when no `?` dimension was left to bucket (a bounded
    module, or every `?` bounded by `bounds`): the user believed in programs that did not
    exist. A malformed list is refused there too."""
    text = SOFTMAX if bounds else SOFTMAX.replace("?", "<=16")
    with pytest.raises(dynhlo.UnsupportedError, match=r"buckets=\[4\]: the module has no "
                                                      r"unbounded \(\?\) dimension left"):
        dynhlo.compile(text, bounds=bounds, buckets=[4])
    with pytest.raises(dynhlo.UnsupportedError, match="sizes >= 1"):
        dynhlo.compile(text, bounds=bounds, buckets=[0])


def test_explicit_bounds_alone_make_one_program():
    exe = dynhlo.compile(SOFTMAX, bounds={"x": {0: 16}})
    assert isinstance(exe, dynhlo.Executable)
    assert str(exe.parameters[0].shape) == "f32[<=16,64]{1,0}"
    np.testing.assert_allclose(exe(rows(16)), softmax(rows(16)), rtol=1e-5)
    with pytest.raises(dynhlo.ArgumentError, match="size 17 > bound 16"):
        exe(rows(17))

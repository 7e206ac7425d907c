"""A CPU call computes IEEE arithmetic whatever NumPy error handling the caller set, and
leaves the caller's setting as it was: after a result, after an error, and when the caller
changes it between calls (fp_errors.py)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import dynhlo
from tests.runtime.test_loop_limits_and_odd_inputs import FOREVER

IEEE = """HloModule ieee
ENTRY main {
  x = f32[<=8] parameter(0)
  y = f32[<=8] parameter(1)
  d = f32[<=8] divide(x, y)
  s = f32[<=8] subtract(d, d)
  ROOT r = (f32[<=8], f32[<=8]) tuple(d, s)
}
"""


def _inputs(n: int):
    x = np.array([1, -1, 0, 3, np.inf, -2, 5, 0][:n], np.float32)
    y = np.array([0, 0, 0, 2, 4, np.inf, -0.0, 7][:n], np.float32)
    return x, y


def _want(x, y):
    with np.errstate(all="ignore"):
        d = x / y
        return d, d - d


@pytest.mark.parametrize("reference", [False, True])
def test_ieee_results_under_every_caller_setting_which_stays_the_callers(reference):
    """1/0, 0/0 and inf - inf give inf and NaN under "raise", "warn", "call" and the
    default, call after call; the caller's setting and callback are back after each."""
    exe = dynhlo.compile(IEEE, reference=reference)
    seen = []
    before = np.geterr(), np.geterrcall()
    try:
        for setting in ("raise", "warn", "call", "ignore", "raise"):
            np.seterr(all=setting)
            np.seterrcall(seen.append)
            for n in (1, 3, 8):
                x, y = _inputs(n)
                got = exe(x, y)
                for g, w in zip(got, _want(x, y), strict=True):
                    assert g.tobytes() == w.tobytes(), (setting, n)
                assert np.geterr() == {k: setting for k in np.geterr()}
                assert np.geterrcall() == seen.append
        assert seen == []   # (the "call" setting's callback never called inside)
    finally:
        np.seterr(**before[0])
        np.seterrcall(before[1])


def test_the_callers_setting_is_back_after_an_error_inside_the_call():
    """A loop past its iteration limit raises from inside the call: the caller's "raise"
    is its setting again, and NumPy raises for it as before."""
    exe = dynhlo.compile(FOREVER, max_while_iterations=5)
    before = np.geterr()
    try:
        np.seterr(all="raise")
        with pytest.raises(dynhlo.IterationLimitError):
            exe(np.int32(10))
        assert np.geterr()["divide"] == "raise"
        with pytest.raises(FloatingPointError):
            np.float32(1) / np.float32(0)
    finally:
        np.seterr(**before)


def test_each_thread_keeps_its_own_setting():
    """Calls in two threads, one under "raise": each thread's setting is its own before and
    after (NumPy's setting is per context, and so is the call's)."""
    exe = dynhlo.compile(IEEE)
    found = {}

    def worker(name, setting):
        with np.errstate(all=setting):
            for _ in range(200):
                x, y = _inputs(8)
                got = exe(x, y)
                assert np.isnan(got[1][0])
            found[name] = np.geterr()["invalid"]
    threads = [threading.Thread(target=worker, args=(n, s))
               for n, s in (("a", "raise"), ("b", "warn"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found == {"a": "raise", "b": "warn"}

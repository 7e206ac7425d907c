"""Malformed HLO text: every case is an HloParseError at an exact line and column.

The last tests fuzz the parser: mutated corpus modules either parse or raise HloParseError,
never another exception, a RecursionError or a hang. Each case runs under a deadline, so a
hang is a failure, and the seeded fuzzer's failure message names its seed and case
(DYNHLO_FUZZ_SEED=N reruns that seed).
"""

from __future__ import annotations

import glob
import os
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.deadline import deadline
from dynhlo.errors import DynHloError, HloParseError
from dynhlo.hlo import parse_hlo
from tests.support.common import DATA

SHARED = str(DATA)
CORPUS = [open(p).read() for p in sorted(glob.glob(os.path.join(SHARED, "models", "*",
                                                                   "module.hlo")))]

H = "HloModule m\n"
E = "HloModule m\nENTRY e {\n"
P0 = "  a = f32[] parameter(0)\n"
END = "}\n"

# (id, text, line, column, a fragment of the message)
CASES = [
    ("empty input", "", 1, 1, "expected 'HloModule'"),
    ("only whitespace", "  \n\n", 3, 1, "got 'end of text'"),
    ("missing HloModule", "ENTRY e {\n  ROOT a = f32[] parameter(0)\n}\n", 1, 1,
     "expected 'HloModule' at the start"),
    ("misspelled HloModule", "HloModul m\n", 1, 1, "got 'HloModul m'"),
    ("no computation", H, 2, 1, "expected a computation"),
    ("missing module name", "HloModule {\n", 1, 11, "expected the module name"),
    ("unknown opcode", E + P0 + "  ROOT b = f32[] frobnicate(a)\n" + END, 4, 18,
     "unknown opcode 'frobnicate'"),
    ("unknown element type", E + "  ROOT a = f31[2] parameter(0)\n" + END, 3, 12,
     "unknown element type 'f31'"),
    ("bad dims", E + "  ROOT a = f32[<=x] parameter(0)\n" + END, 3, 16,
     "bad dimension '<=x'"),
    ("negative dim", E + "  ROOT a = f32[2,-3] parameter(0)\n" + END, 3, 18,
     "negative dimension '-3'"),
    ("bad second dim", E + "  ROOT a = f32[2, x] parameter(0)\n" + END, 3, 19,
     "bad dimension 'x'"),
    ("shape bracket left open", E + "  a = f32[<=64,8 parameter(0)\n  ROOT b = f32[2] "
     "parameter(1)\n" + END, 3, 18, "expected ',' or ']' after the dimension '8', got "
     "'parameter(0)'"),
    ("dim with underscore", E + "  ROOT a = f32[1_0] parameter(0)\n" + END, 3, 16,
     "bad dimension '1_0'"),
    ("layout not a permutation", E + "  ROOT a = f32[2,3]{1,1} parameter(0)\n" + END, 3, 20,
     "not a permutation of the 2 dimensions"),
    ("layout of the wrong rank", E + "  ROOT a = f32[2,3]{0} parameter(0)\n" + END, 3, 20,
     "layout {0} is not a permutation"),
    ("layout not numbers", E + "  ROOT a = f32[2,3]{a,b} parameter(0)\n" + END, 3, 20,
     "bad layout '{a,b}'"),
    ("unknown operand", E + P0 + "  ROOT b = f32[] add(a, c)\n" + END, 4, 25,
     "unknown operand 'c' in computation 'e'"),
    ("unknown typed operand",
     E + "  %a = f32[] parameter(0)\n  ROOT %b = f32[] add(f32[] %a, f32[] %q)\n" + END,
     4, 39, "unknown operand 'q'"),
    ("duplicate instruction", E + P0 + "  a = f32[] negate(a)\n" + END, 4, 3,
     "instruction 'a' is defined twice"),
    ("two ROOTs", E + "  ROOT a = f32[] parameter(0)\n  ROOT b = f32[] negate(a)\n" + END,
     4, 3, "second ROOT in computation 'e'"),
    ("two ENTRYs", E + "  ROOT a = f32[] parameter(0)\n}\nENTRY f {\n"
     "  ROOT a = f32[] parameter(0)\n}\n", 5, 1, "second ENTRY computation 'f'"),
    ("missing '}'", E + "  ROOT a = f32[] parameter(0)\n", 4, 1,
     "expected '}' to close computation 'e'"),
    ("missing '{'", H + "ENTRY e\n  ROOT a = f32[] parameter(0)\n}\n", 3, 3,
     "expected '{' to open the computation"),
    ("operand list left open before an attribute", E + P0 + "  b = f32[] parameter(1)\n"
     "  ROOT c = f32[] add(a, b, metadata={op_name=\"x\"}\n" + END, 5, 28,
     "expected ')' to close the operand list before the attribute 'metadata='"),
    ("unclosed attribute braces", E + "  ROOT a = f32[2] parameter(0), sharding={devices=[2]0,1\n",
     3, 42, "expected '}' to close the attribute value"),
    ("mismatched attribute bracket", E + "  ROOT a = f32[2] parameter(0), metadata={[0:2}\n"
     + END, 3, 47, "unbalanced '}' in attribute value"),
    ("unterminated string", E + '  ROOT a = f32[] parameter(0), metadata={op_name="x}\n' + END,
     3, 50, "unterminated string"),
    ("literal with too many values", E + "  ROOT c = f32[2] constant({1, 2, 3})\n" + END, 3, 35,
     "more than 2 elements"),
    ("literal with too few values", E + "  ROOT c = f32[2,2] constant({ {1, 2}, {3} })\n" + END,
     3, 42, "only 1 of 2 elements"),
    ("literal not a number", E + "  ROOT c = f32[2] constant({1, x})\n" + END, 3, 32,
     "'x' is not a number"),
    ("literal value does not fit", E + "  ROOT c = s8[2] constant({1, 300})\n" + END, 3, 31,
     "value 300 does not fit s8: its range is -128..127"),
    ("s4 value does not fit", E + "  ROOT c = s4[] constant(8)\n" + END, 3, 26,
     "value 8 does not fit s4"),
    ("float literal for an integer type", E + "  ROOT c = s32[] constant(1.5)\n" + END, 3, 27,
     "value 1.5 is not a valid s32"),
    ("literal out of f16 range", E + "  ROOT c = f16[] constant(1e6)\n" + END, 3, 27,
     "out of range for f16"),
    ("elided literal", E + "  ROOT c = f32[4] constant({...})\n" + END, 3, 28,
     "elided literal '{...}'"),
    ("unknown called computation", E + "  a = f32[2] parameter(0)\n  z = f32[] constant(0)\n"
     "  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=nope\n" + END, 5, 57,
     "unknown computation 'nope' in to_apply="),
    ("called computation not a name", E + "  a = f32[2] parameter(0)\n"
     "  ROOT r = f32[2] map(a), to_apply={1x}\n" + END, 4, 36,
     "expected a computation name, got '1x'"),
    ("wrong arity", E + P0 + "  ROOT b = f32[] add(a)\n" + END, 4, 3,
     "add takes 2 operand(s), got 1"),
    ("parameter numbers with a gap", E + P0 + "  ROOT b = f32[] parameter(2)\n" + END, 4, 3,
     "parameter number 2 of 'b' is not in 0..1"),
    ("parameter number used twice", E + P0 + "  ROOT b = f32[] parameter(0)\n" + END, 4, 3,
     "parameter number 0 of 'b' is used twice"),
    ("parameter number not a number", E + "  ROOT a = f32[] parameter(x)\n" + END, 3, 28,
     "expected a parameter number"),
    ("empty computation", E + END, 2, 1, "computation 'e' has no instructions"),
    ("garbage after an instruction", E + "  ROOT a = f32[] parameter(0) junk\n" + END, 3, 31,
     "got 'junk'"),
    ("missing '='", E + "  ROOT a f32[] parameter(0)\n" + END, 3, 3,
     "expected an instruction 'name = shape opcode(operands)'"),
    ("missing shape", E + "  ROOT a = parameter(0)\n" + END, 3, 12,
     "cannot infer shape for opcode: parameter"),
    ("missing '('", E + "  ROOT a = f32[] parameter 0\n" + END, 3, 18,
     "expected an opcode followed by '('"),
    ("attribute given twice",
     E + "  ROOT a = f32[2] parameter(0), sharding={replicated}, sharding={replicated}\n" + END,
     3, 56, "attribute 'sharding' given twice"),
    ("empty attribute value", E + "  ROOT a = f32[] parameter(0), sharding=\n" + END, 4, 1,
     "expected an attribute value"),
    ("binary junk", E + "  \x00\x01\x02\n" + END, 3, 3, "got '\\x00\\x01\\x02'"),
    ("invalid UTF-8 bytes", b"HloModule m\nENTRY e {\n  ROOT a = f32[] parameter(0) \xff\n}\n",
     3, 31, "byte 0xff is not UTF-8 text"),
    ("tuple shape nested too deep",
     E + "  ROOT a = " + "(" * 200 + "f32[]" + ")" * 200 + " parameter(0)\n" + END, 3, 76,
     "tuple shape nested more than 64 deep"),
    ("unknown computation attribute", E + "  ROOT a = f32[] parameter(0)\n}, threads=1\n", 4, 3,
     "unknown computation attribute 'threads'"),
    ("computation defined twice", H + "f {\n  ROOT a = f32[] parameter(0)\n}\n"
     "f {\n  ROOT a = f32[] parameter(0)\n}\n", 5, 1, "computation 'f' is defined twice"),
    ("bad signature", H + "ENTRY e (a f32[]) -> f32[] {\n  ROOT a = f32[] parameter(0)\n}\n", 2, 12,
     "expected ':'"),
    ("stack frame index out of order", H + 'FileNames\n1 "f.py"\nFunctionNames\n1 "f"\n'
     "StackFrames\nENTRY e {\n  ROOT a = f32[] parameter(0)\n}\n", 6, 1,
     "expected 'FileLocations' in the stack frame index"),
    ("constant with an unbounded dimension", E + "  ROOT c = f32[?] constant({1})\n" + END, 3, 28,
     "needs a size for every '?' dimension"),
    ("token constant", E + "  ROOT c = token[] constant(0)\n" + END, 3, 29,
     "token has no literal values"),
]


@pytest.mark.parametrize("text, line, column, fragment", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_malformed_text(text, line, column, fragment):
    with pytest.raises(HloParseError) as info:
        parse_hlo(text)
    err = info.value
    assert (err.line, err.column) == (line, column), str(err)
    assert fragment in str(err)
    assert isinstance(err, DynHloError)


def test_error_shows_the_line_with_a_caret():
    with pytest.raises(HloParseError) as info:
        parse_hlo(E + P0 + "  ROOT b = f32[] frobnicate(a)\n" + END)
    lines = str(info.value).splitlines()
    assert lines[0] == "4:18: unknown opcode 'frobnicate'"
    assert lines[1] == "    ROOT b = f32[] frobnicate(a)"
    assert lines[2] == "  " + " " * 17 + "^"


@pytest.mark.parametrize("name, hinted", [("model.hlo", True), ("dump.txt", True),
                                          ("garbage", False), ("ENTRY e {", False)])
def test_a_file_name_given_as_text_says_so(name, hinted):
    """Before: `dynhlo.compile("m.hlo")` was only "expected 'HloModule' ..., got 'm.hlo'"."""
    with pytest.raises(HloParseError) as info:
        parse_hlo(name)
    assert (info.value.line, info.value.column) == (1, 1)
    hint = f"'{name}' is a file name, not HLO text: pass open('{name}').read()"
    assert (hint in str(info.value)) == hinted, str(info.value)


def test_error_positions_in_dump_form_with_comments():
    text = ("HloModule m, is_scheduled=true\n\n/* header */\nENTRY %e (p: f32[2]) -> f32[2] {\n"
            "  %p = f32[2]{0} parameter(0)\n"
            "  ROOT %t = (f32[2]{0}, f32[2]{0}) tuple(f32[2]{0} %p, /*index=1*/f32[2]{0} %x)\n}\n")
    with pytest.raises(HloParseError) as info:
        parse_hlo(text)
    assert (info.value.line, info.value.column) == (6, 77)
    assert "unknown operand 'x'" in str(info.value)


@pytest.mark.parametrize("text", [
    E + "  ROOT a = f32[] parameter(0), x=" + "{" * 50_000 + "\n}",
    E + "  ROOT a = f32[] parameter(0), x={" + "[" * 50_000 + "\n}",
    E + "  ROOT a = f32[] add(" + "x, " * 50_000 + "\n}",
    E + "  ROOT a = f32[] parameter(0)" + ", k=v" * 20_000 + " junk\n}",
    E + "  ROOT a = f32[" + ",".join(["1"] * 1000) + "] constant(" + "{" * 1000 + "1)\n}",
    E + "  ROOT a = f32[] call(), to_apply=" + "{ b = f32[] call(), to_apply=" * 500 + "\n}",
    E + "/*" + " x" * 100_000,
    E + '  ROOT a = f32[] parameter(0), b="' + '\\"' * 100_000 + "\n}",
], ids=["deep braces", "deep brackets", "no ')'", "many attributes", "deep literal",
        "deep inline computations", "unterminated comment", "unterminated escapes"])
def test_adversarial_input_is_an_error_not_a_crash_or_hang(text):
    with pytest.raises(HloParseError):
        parse_hlo(text)


_ALPHABET = list("{}()[],=%<>?:/*\"\\ \n\t.-+0123456789aexz") + [
    "ROOT ", "ENTRY ", "{...}", "f32[", "((((", "/*", "<=", "-1", "nan", "\x00", "é"]


def _mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(text) + 1)
        kind = rng.random()
        if kind < 0.35:
            text = text[:at] + text[at + rng.randint(1, 8):]
        elif kind < 0.7:
            text = text[:at] + rng.choice(_ALPHABET) * rng.choice([1, 1, 2, 40]) + text[at:]
        else:
            other = rng.randrange(len(text) + 1)
            a, b = sorted((at, other))
            if b - a < 200:
                text = text[:a] + text[b:2 * b - a] + text[a:b] + text[2 * b - a:]
    return text


def _parses_or_parse_error(text: str) -> None:
    try:
        parse_hlo(text)
    except HloParseError:
        pass


@settings(max_examples=300, deadline=None, print_blob=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(CORPUS) - 1), st.randoms(use_true_random=False))
def test_fuzz_mutations_hypothesis(index, rng):
    with deadline(CASE_SECONDS, "parse_hlo of a mutated module"):
        _parses_or_parse_error(_mutate(CORPUS[index], rng))


# A case parses in milliseconds; one that takes seconds is a backtracking regex or a loop that
# does not advance, and the deadline makes it a failure naming the seed instead of a hung run
# (a run once hung for over 10 minutes and its seed was lost: only the failure message shows).
CASE_SECONDS = 10
CASES_PER_SEED = 2000


def _seed() -> tuple[int, str]:
    """DYNHLO_FUZZ_SEED if set, else a fresh random seed; and how to rerun it."""
    seed = int(os.environ.get("DYNHLO_FUZZ_SEED") or random.randrange(2**32))
    return seed, f"fuzz seed {seed} (rerun with DYNHLO_FUZZ_SEED={seed})"


def test_fuzz_mutations_seeded():
    seed, rerun = _seed()
    print(rerun)
    rng = random.Random(seed)
    for case in range(CASES_PER_SEED):
        text = _mutate(rng.choice(CORPUS), rng)
        try:
            with deadline(CASE_SECONDS, f"parse_hlo of case {case}"):
                _parses_or_parse_error(text)
        except Exception as exc:  # the seed and case reproduce it; the text shows what broke
            raise AssertionError(f"{rerun}, case {case}: {type(exc).__name__}: {exc}\n"
                                 f"mutated text: {text[:2000]!r}") from exc


def test_a_seeded_fuzz_failure_names_its_seed_and_case(monkeypatch):
    """The failure message is what reproduces a failure: the seed and case must be in it,
    for an exception and for a hang alike."""
    monkeypatch.setenv("DYNHLO_FUZZ_SEED", "12345")
    monkeypatch.setattr(sys.modules[__name__], "CASES_PER_SEED", 3)

    def raises(text):
        raise KeyError("boom")
    monkeypatch.setattr(sys.modules[__name__], "_parses_or_parse_error", raises)
    with pytest.raises(AssertionError) as info:
        test_fuzz_mutations_seeded()
    assert str(info.value).startswith("fuzz seed 12345 (rerun with DYNHLO_FUZZ_SEED=12345), "
                                      "case 0: KeyError: 'boom'")

    def hangs(text):
        while True:
            pass
    monkeypatch.setattr(sys.modules[__name__], "CASE_SECONDS", 1)
    monkeypatch.setattr(sys.modules[__name__], "_parses_or_parse_error", hangs)
    with pytest.raises(AssertionError) as info:
        test_fuzz_mutations_seeded()
    assert str(info.value).startswith("fuzz seed 12345 (rerun with DYNHLO_FUZZ_SEED=12345), "
                                      "case 0: AssertionError: parse_hlo of case 0 did not "
                                      "finish in 1 s")


@pytest.mark.parametrize("blank", [" ", "\t", "\n", " /* c */ ", " // c //\n"])
def test_a_long_blank_run_after_an_attribute_is_an_error_not_a_hang(blank):
    # The blank skipper was `(?:\s+|comment)*`: a run of n blanks not followed by ',' made
    # the regex engine try 2^n splits of it (fuzz seed 30181445 hung the parser). The
    # deadline turns a regression into a failure instead of a hung test run.
    text = ("HloModule m\nENTRY main {\n  p = f32[4]{0} parameter(0)\n"
            "  ROOT n = f32[4]{0} negate(p), metadata={op_name=\"x\"}" + blank * 64 + "junk\n}\n")
    with deadline(10, "parse_hlo"), pytest.raises(HloParseError) as info:
        parse_hlo(text)
    assert "junk" in str(info.value)


@pytest.mark.parametrize("text, column, fragment", [
    # fuzz seed 50 case 513, minimised: the shape's ']' is gone, a '/' run follows on the line
    (E + "  ROOT a = f32[2 parameter(0), b=" + "/" * 60 + "c\n}\n", 12,
     "expected a shape like f32[2,3]{1,0}, got 'f32[2 parame': no ']' closes its '['"),
    (E + "  ROOT a = f32[2 " + "/" * 60 + "\n}\n", 12,  # the run inside the brackets
     "no ']' closes its '['"),
    (E + "  ROOT a = f32[2]{0 parameter(0), b=" + "/" * 60 + "c", 18,  # no layout '}' comes
     "expected an opcode followed by '(', got '{0 parameter'"),
], ids=["after an unclosed shape", "inside an unclosed shape", "after an unclosed layout"])
def test_a_slash_run_after_an_unclosed_shape_is_an_error_not_a_hang(text, column, fragment):
    # A `//` comment inside a shape's brackets was `//[^\n]*`, which could end before any
    # character: with no ']' to find, the regex tried every split of the '/' run into
    # comments (Fibonacci-many; 40 slashes took minutes). Now it runs to the line's end only.
    with deadline(10, "parse_hlo"), pytest.raises(HloParseError) as info:
        parse_hlo(text)
    assert (info.value.line, info.value.column) == (3, column), str(info.value)
    assert fragment in str(info.value)


def test_a_line_comment_inside_a_shape_hides_a_bracket_to_the_end_of_its_line():
    # XLA's lexer: `//` starts a comment that ends at the newline, brackets in it included
    module = parse_hlo(E + "  ROOT a = f32[2, // ]\n 3]{1, // }\n 0} parameter(0)\n" + END)
    shape = module.entry.root.shape
    assert shape.dims == (2, 3) and shape.layout.minor_to_major == (1, 0)

"""Pathological text: long runs of one character in HLO text (and the CLI's text arguments)
must parse or fail fast, and comments stand anywhere XLA's lexer allows them.

The parser is regex based; a regex with two ways through a run of characters (`\\s*\\s*`,
`[0-9]+\\.?[0-9]*`) is quadratic on a long run, one with nested quantifiers exponential. Each
parse here runs under a SIGALRM guard, so a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import random

import pytest

from tests.support.common import MODELS
from tests.support.deadline import deadline
from dynhlo.cli import CliError, parse_bounds, read_argument
from dynhlo.cli.files import _bare_number
from dynhlo.errors import HloParseError
from dynhlo.hlo import attrs, parse_hlo
from dynhlo.hlo.values import parse_literal_text

CORPUS = {p.parent.name: p.read_text() for p in sorted(MODELS.glob("*/module.hlo"))}

# What the parser's regexes read: blanks, comment marks, brackets, separators, sigils, the
# characters of names, numbers, strings and escapes, and a few two-character tokens.
RUNS = [" ", "\t", "\n", "/", "*", "{", "}", "[", "]", "(", ")", ",", "=", "%", "0", "7", "a",
        "x", "_", '"', "\\", "-", "e", ".", "<=", "/*", "*/", "//", "1e", "1.", '\\"', ", a="]
# Insertion points next to these characters put a run inside shapes, operand lists, attribute
# values and literals, not only between instructions; a character after the run makes the
# regex reading it fail there, which is when a backtracking regex tries every split of it.
ANCHORS = "[]{}(),=<\"/-0123456789"
TAILS = ["", "", "x", "}", ")", "]", ",", "-inf", " x"]
SECONDS = 5  # a linear parse of these texts takes milliseconds; quadratic ones took minutes


def _parses_or_parse_error(text: str, what: str) -> None:
    with deadline(SECONDS, what):
        try:
            parse_hlo(text)
        except HloParseError:
            pass


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_long_runs_inserted_anywhere_parse_or_fail_fast(name):
    text = CORPUS[name]
    rng = random.Random(f"runs {name}")  # fixed per module: a failure names its case
    by_char = {c: [i for i, t in enumerate(text) if t == c] for c in ANCHORS if c in text}
    anchors = sorted(by_char)
    for run in RUNS:
        for length in (200, 2000, 20_000):
            for _ in range(6):
                if rng.random() < 0.8:  # before or after an anchor character
                    at = rng.choice(by_char[rng.choice(anchors)]) + rng.randrange(2)
                else:
                    at = rng.randrange(len(text) + 1)
                count, tail = max(1, length // len(run)), rng.choice(TAILS)
                _parses_or_parse_error(text[:at] + run * count + tail + text[at:],
                                       f"{name}: {run!r} * {count} + {tail!r} at offset {at}")


LONG = 50_000


@pytest.mark.parametrize("text", [
    # `\s*(<=)?\s*` in a dimension: two ways through every blank
    "HloModule m\nENTRY e {\n  ROOT a = f32[" + " " * LONG + "x] parameter(0)\n}\n",
    "HloModule m\nENTRY e {\n  ROOT a = f32[" + " " * LONG + "<=" + " " * LONG + "1x] "
    "parameter(0)\n}\n",
    # `[0-9]+\.?[0-9]*` in a float: two ways through every digit
    "HloModule m\nENTRY e {\n  ROOT a = f32[] constant(" + "1" * LONG + "-inf)\n}\n",
    "HloModule m\nENTRY e {\n  ROOT a = f32[2] constant({" + "1" * LONG + "x, 1})\n}\n",
    # the unknown operand's position was searched for in the whole rest of the text, where a
    # shape's `[` with no `]` on its line made each try read to the line's end
    "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  ROOT b = f32[] add(a, zz)\n}\n"
    "// " + "f32[" * LONG + "\n",
], ids=["dimension blanks", "bound blanks", "float digits", "row digits", "unknown operand"])
def test_runs_that_were_quadratic_are_errors_in_milliseconds(text):
    with deadline(SECONDS, "parse_hlo"), pytest.raises(HloParseError):
        parse_hlo(text)


def test_a_long_digit_run_in_a_literal_argument_fails_fast():
    with deadline(SECONDS, "parse_literal_text"), pytest.raises(HloParseError) as info:
        parse_literal_text("f32[] " + "1" * LONG + "x")
    assert "is not a number" in str(info.value)


MODULE = ("HloModule m{header}\nENTRY main {{\n  p = f32[4]{{0}} parameter(0)\n"
          "  ROOT n = pred[4]{{0}} compare(p, p), direction=LT{attrs}\n}}\n")


@pytest.mark.parametrize("comment", ["// c", "//", "/* c */", "/**/", "/* a // b */"])
@pytest.mark.parametrize("attr", ["", ', metadata={op_name="x"}', ', backend_config="s"',
                                  ", type=TOTALORDER"])
def test_a_comment_right_after_an_attribute_value_is_skipped(attr, comment):
    # XLA's lexer (hlo_lexer.cc) skips `//...` and `/*...*/` between any two tokens; the value
    # reader took `//` or `/*` after a value as more of it (`metadata={...}// c` was refused).
    attrs = parse_hlo(MODULE.format(header="", attrs=attr + comment)).entry.root.attrs
    key, _, value = attr.strip(", ").partition("=")
    assert attrs == {"direction": "LT", **({key: value} if attr else {})}


def test_a_comment_between_attributes_and_after_a_module_attribute_is_skipped():
    text = MODULE.format(header=", is_scheduled=true/* c */", attrs="/* c */, type=TOTALORDER")
    module = parse_hlo(text)
    assert module.attrs == {"is_scheduled": "true"}
    assert module.entry.root.attrs == {"direction": "LT", "type": "TOTALORDER"}


def test_a_slash_that_starts_no_comment_stays_in_the_value():
    module = parse_hlo(MODULE.format(header="", attrs=", metadata=a/b"))
    assert module.entry.root.attrs["metadata"] == "a/b"


TRANSPOSE = ("HloModule m\nENTRY e {{\n  a = f32[2,3] parameter(0)\n"
             "  ROOT t = f32[3,2] transpose(a), dimensions={dims}\n}}\n")


@pytest.mark.parametrize("dims", ["{1,0 /* } */}", "{1, /* x */ 0}", "{1,0 // }\n}",
                                  "{/*0,1*/1,0}", "{1,0 /* ] */}", "{1,0 /* \" */}",
                                  "{1,0 /* ' */}", "{1 /* a*b**/, 0}", "{1,0 /***/}"])
def test_a_comment_inside_an_attribute_value_is_skipped(dims):
    # XLA's lexer skips comments between the tokens of a value too; the value reader took a
    # bracket inside a comment as the value's end (`{1,0 /* } */}` left `*/}` to read as an
    # instruction) and kept the comment in the text (`{1, /* x */ 0}` was no integer list).
    root = parse_hlo(TRANSPOSE.format(dims=dims)).entry.root
    assert attrs.ints(root, "dimensions") == (1, 0)
    assert "/" not in root.attrs["dimensions"]


def test_an_unterminated_comment_in_an_attribute_value_is_a_parse_error_at_it():
    with pytest.raises(HloParseError, match="unterminated comment in attribute value") as info:
        parse_hlo(TRANSPOSE.format(dims="{1,0 /* }"))
    assert (info.value.line, info.value.column) == (4, 51)


def test_a_json_backend_config_is_kept_as_written():
    # XLA reads backend_config={...} raw (HloLexer::LexJsonDict: braces and strings only)
    text = MODULE.format(header="", attrs=', backend_config={"a": 1 /* x */}')
    assert parse_hlo(text).entry.root.attrs["backend_config"] == '{"a": 1 /* x */}'


def test_a_bracket_in_a_comment_inside_a_literal_or_parameter_number_is_skipped():
    # The one-line fast path took the ')' inside the comment as the literal's end, then
    # resumed there: `} */ 2})` was read as the computation's end; the literal's reader took
    # a comment with a '*' in it, or a `//` one, for a value.
    text = ("HloModule m\nENTRY e {\n  p = f32[2] parameter(/* ) */ 0 /* ) } */)\n"
            "  c = f32[2] constant({1, /* ) } a*b */ 2 // )\n})\n  ROOT s = f32[2] add(p, c)\n}\n")
    entry = parse_hlo(text).entry
    assert [i.name for i in entry.instructions] == ["p", "c", "s"]
    assert entry.instructions[0].parameter_number == 0
    assert entry.instructions[1].literal.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("inside", ["/" * LONG, "/*/" * LONG + "*/", "/**" * LONG + "/",
                                    "// x\n" * LONG, "/*" * LONG])
def test_long_comment_runs_inside_a_value_fail_or_parse_fast(inside):
    text = TRANSPOSE.format(dims="{1," + inside + "0}")
    with deadline(SECONDS, "parse_hlo"):
        try:
            parse_hlo(text)
        except HloParseError:
            pass


# -- the CLI's text arguments ----------------------------------------------------------------

@pytest.mark.parametrize("spec", ["x:0=" + "1" * 5000, "x:" + "1" * 5000 + "=4", "x:²=4"])
def test_a_bound_that_is_no_small_integer_is_a_cli_error(spec):
    # int() refuses more than 4300 digits (a ValueError, shown as a bug in dynhlo)
    with pytest.raises(CliError, match="expected NAME:DIM=BOUND"):
        parse_bounds([spec])


def test_a_bound_name_of_other_digits_is_a_name_not_a_parameter_number():
    # '²'.isdigit() is true, but int('²') raises: such a name is kept as a name
    assert parse_bounds(["²:0=4", "1:2=8"]) == {"²": {0: 4}, 1: {2: 8}}


def test_long_runs_in_a_run_argument_fail_fast():
    with deadline(SECONDS, "_bare_number"):
        assert _bare_number("1" * LONG + "x") is None
        assert _bare_number("1" * 50 + ".5e3") == float("1" * 50 + ".5e3")
    with deadline(SECONDS, "read_argument"), pytest.raises(CliError):
        read_argument(0, " " * LONG + "(" + " " * LONG + "1")

"""Tests of dynhlo.hlo: the text parser, literals, the printer and the verifier."""

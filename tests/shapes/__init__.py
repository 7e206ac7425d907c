"""Tests of dynhlo.shapes: the size algebra, dynamic-dimension inference, size checks and bounds."""

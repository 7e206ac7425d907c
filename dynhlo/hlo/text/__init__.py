"""HLO text, read and written as XLA writes it (xla/hlo/parser/hlo_parser.cc).

    parser.py              parse_hlo: a module's text -> HloModule (HloParseError with line, column)
    scanner.py             positions, errors, names, shapes, attribute values
    instruction_parser.py  the general instruction path
    instruction_fast.py    one regex for most lines, falling back on the general path
    infer.py               the shapes XLA lets a text leave out, inferred
    printer.py             print_module: HloModule -> text that parse_hlo reads back
"""

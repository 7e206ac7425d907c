"""`python -m dynhlo ...`: the same as the `dynhlo` command."""

import sys

from .cli import main

sys.exit(main())

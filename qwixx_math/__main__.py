"""``python -m qwixx_math``: the same as the ``qwixx-math`` command."""

import sys

from .cli import main

sys.exit(main())

"""``python -m client_sdk.cli``: the same as ``parlour-bot``."""

import sys

from . import main

sys.exit(main())

"""`python -m bot`: the command line (run the bot, play at the terminal, simulate, replay, migrate)."""

import sys

from bot.cli import main

sys.exit(main())

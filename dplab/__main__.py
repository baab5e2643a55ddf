"""``python -m dplab``: the lab's command line (see ``dplab/lab/cli.py``)."""

import sys

from dplab.lab.cli import main

if __name__ == "__main__":
    sys.exit(main())

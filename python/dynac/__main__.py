"""python3 -m dynac: record | run | build | explain (see `python3 -m dynac --help`)."""
import sys

from ._cli import main

sys.exit(main(sys.argv[1:]))

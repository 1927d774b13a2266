import sys

from croupier.cli import main

sys.exit(main())

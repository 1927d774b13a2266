"""One module per `croupier` subcommand; each exposes `main(argv) -> int` (see croupier.cli)."""

"""croupier: the croupier's assistant for a physical roulette table."""

__version__ = "0.1.0"

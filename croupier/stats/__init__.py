"""Wheel-integrity statistics: pure, standard library only (no numpy or scipy at run time).

`summary(spins)` is the one entry point for reports: every test over a run of counted spins of one
wheel, JSON-able, each result in plain words with the spins it needs to mean something."""
from croupier.stats.chart import wheel_chart
from croupier.stats.spins import CountedSpin, select_window
from croupier.stats.summary import summarise, summary, summary_by_wheel

__all__ = ["CountedSpin", "select_window", "summarise", "summary", "summary_by_wheel", "wheel_chart"]

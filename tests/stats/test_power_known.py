"""The power figures the summary looks up are the ones the search finds: a table that drifted from
the search (a changed bias, power or level) would put a wrong figure in every report."""
import pytest

from croupier.stats import power_known
from croupier.stats.power import biased, spins_for_binomial_test, spins_for_chi_square
from croupier.stats.summary import BIAS, POWER


@pytest.mark.parametrize("key", list(power_known.CHI_SQUARE)[:6] + list(power_known.CHI_SQUARE)[-2:])
def test_each_chi_square_figure_is_the_search_s(key):
    null, favoured, alpha = key
    assert power_known.CHI_SQUARE[key] == spins_for_chi_square(null, biased(null, favoured, BIAS), alpha, POWER)


@pytest.mark.parametrize("key", list(power_known.BINOMIAL))
def test_each_binomial_figure_is_the_search_s(key):
    share, alpha, two_sided = key
    assert power_known.BINOMIAL[key] == spins_for_binomial_test(share, share * (1 + BIAS), alpha, POWER, two_sided)


def test_the_summary_looks_its_figures_up():
    """A summary at the default level searches nothing (the search is seconds on a Pi 3)."""
    import importlib
    from unittest import mock

    module = importlib.import_module("croupier.stats.summary")

    module._needed_chi_square.cache_clear()
    module._needed_proportion.cache_clear()
    with mock.patch.object(module, "spins_for_chi_square", side_effect=AssertionError("searched")), \
            mock.patch.object(module, "spins_for_binomial_test", side_effect=AssertionError("searched")):
        for numbering in ("french", "american"):
            module.summary([], numbering)

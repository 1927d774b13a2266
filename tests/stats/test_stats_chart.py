"""The frequency chart in wheel order, as the pit boss reads it in a terminal."""
import pytest

from croupier.stats import wheel_chart


def test_chart_has_one_line_per_pocket_in_wheel_order(french_ring):
    counts = [100] * 37
    lines = wheel_chart(counts, french_ring, width=30).splitlines()
    rows = lines[1:38]
    assert [int(row.split()[0]) for row in rows] == french_ring
    assert "3,700 spins" in lines[-1] and "100.0 spins per pocket" in lines[-1]


def test_the_hot_pocket_has_the_longest_bar_and_the_cold_ones_show_the_fair_mark(french_ring):
    counts = [100] * 37
    counts[17] = 150
    counts[0] = 50
    rows = {int(line.split()[0]): line for line in wheel_chart(counts, french_ring, width=30).splitlines()[1:38]}
    bar = {n: row.count("█") for n, row in rows.items()}
    assert bar[17] == 30 == max(bar.values())
    assert bar[0] == 10  # half of the 20 columns a fair count fills
    assert "┊" in rows[0] and rows[17].split()[-2] == "150"
    assert rows[17].split()[-1] == "+5.1"  # 3,700 spins: (150 - 100) / sqrt(3700 * 1/37 * 36/37)


def test_chart_of_no_spins_draws_empty_bars(french_ring):
    assert "0 spins" in wheel_chart([0] * 37, french_ring)


def test_chart_refuses_a_width_it_cannot_draw(french_ring):
    with pytest.raises(ValueError, match="width"):
        wheel_chart([1] * 37, french_ring, width=3)


def test_ascii_chart_for_paper_uses_only_plain_characters(french_ring):
    counts = [100] * 37
    counts[17] = 150
    chart = wheel_chart(counts, french_ring, width=30, ascii=True)
    assert chart.isascii()
    row = next(line for line in chart.splitlines()[1:38] if line.split()[0] == "17")
    assert row.count("#") == 30

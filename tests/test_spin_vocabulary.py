import pytest

from croupier.rules.spin import Direction, VoidReason


def test_alternating_launch_flips_direction():
    assert Direction.CLOCKWISE.opposite() is Direction.ANTICLOCKWISE
    assert Direction.ANTICLOCKWISE.opposite() is Direction.CLOCKWISE


def test_void_reason_parse_accepts_known_and_names_the_choices_otherwise():
    assert VoidReason.parse(" Chip-Fell ") is VoidReason.CHIP_FELL
    with pytest.raises(ValueError, match="'dropped' is not a void reason; use one of: chip-fell"):
        VoidReason.parse("dropped")

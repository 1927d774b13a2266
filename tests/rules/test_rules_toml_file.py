"""One reader for the program's TOML files: a configuration and a profile with the same defect are
refused in the same words, and both take what the other takes (a byte-order mark)."""
import pytest

from croupier.config import ConfigError, load_config
from croupier.rules.profiles import ProfileError, load_profile_file
from rules_support import shipped_text


def profile_problem(tmp_path, text: str) -> str:
    path = tmp_path / "house.toml"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    with pytest.raises(ProfileError) as error:
        load_profile_file(path)
    return str(error.value).removeprefix(f"{path}: ")


def config_problem(tmp_path, text) -> str:
    path = tmp_path / "croupier.toml"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    with pytest.raises(ConfigError) as error:
        load_config(path, environ={})
    return str(error.value).removeprefix(f"{path}: ")


def test_a_profile_takes_a_byte_order_mark_as_the_configuration_does(tmp_path):
    path = tmp_path / "house.toml"
    path.write_bytes(b"\xef\xbb\xbf" + shipped_text("pt-americana").encode("utf-8"))
    assert load_profile_file(path).id == "pt-americana"


def test_a_file_that_is_not_utf8_is_worded_alike(tmp_path):
    assert profile_problem(tmp_path, b"id = \"\xff\"\n") == config_problem(tmp_path, b"id = \"\xff\"\n") \
        == "not valid TOML: the file is not UTF-8 text"


def test_a_missing_file_is_worded_alike(tmp_path):
    with pytest.raises(ProfileError) as profile:
        load_profile_file(tmp_path / "nowhere.toml")
    with pytest.raises(ConfigError) as config:
        load_config(tmp_path / "nowhere.toml", environ={})
    assert str(profile.value) == str(config.value)


def test_a_value_that_is_not_a_table_is_worded_alike(tmp_path):
    text = shipped_text("pt-americana")
    profile = profile_problem(tmp_path, "min_bets_per_spin = 3\n" + text[:text.index("[min_bets_per_spin]")])
    assert profile == "min_bets_per_spin: expected a table, got a number (3)"
    assert config_problem(tmp_path, "display = 3\n") == "display: expected a table, got a number (3)"


def test_an_unknown_key_is_worded_alike(tmp_path):
    profile = profile_problem(tmp_path, shipped_text("pt-americana").replace("[ball_swap]", "[ball_swaps]", 1))
    config = config_problem(tmp_path, '[tabel]\nid = "T1"\n')
    assert profile.startswith("ball_swaps: unknown key; known keys here: id, name,")
    assert config.startswith("tabel: unknown key; known keys here: table, colours,")


def test_a_flag_that_is_not_true_or_false_is_worded_alike(tmp_path):
    profile = profile_problem(tmp_path, shipped_text("pt-americana").replace("nassa = { offered = false,",
                                                                             'nassa = { offered = "no",', 1))
    config = config_problem(tmp_path, '[display]\nenabled = "no"\n')
    assert profile == "bets.nassa.offered: expected true or false, got text ('no')"
    assert config == "display.enabled: expected true or false, got text ('no')"

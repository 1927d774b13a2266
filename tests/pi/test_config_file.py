"""The configuration file a technician edits: defaults that run the demo, errors that name the key."""
from __future__ import annotations

import json
import tomllib
from decimal import Decimal
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.config import ConfigError, config_from_argument, default_config, load_config


def write(tmp_path: Path, text: str, name: str = "croupier.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_for(tmp_path: Path, text: str) -> ConfigError:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}: "), "every error names the file first"
    return caught.value


# --- the defaults ---------------------------------------------------------------------------


def test_defaults_run_the_demo_on_any_machine():
    config = default_config()
    # REGULATIONS.md: pt-americana is the default profile.
    assert config.table.profile == "pt-americana"
    assert config.table.language in {"pt", "en"}
    # The demo's keypad is the computer's keyboard: no GPIO matrix needed.
    assert config.keypad.kind == "usb"
    # PT-A 17: two balls of 18-24 mm.
    assert len(config.balls) >= 2
    assert all(Decimal(18) <= b.diameter_mm <= Decimal(24) for b in config.balls)
    assert len(set(config.colours)) == len(config.colours) >= 1
    assert config.source is None


def test_switching_the_default_keypad_to_gpio_needs_no_other_change(tmp_path):
    config = load_config(write(tmp_path, '[keypad]\nkind = "gpio"\n'))
    pins = config.gpio_pins()
    assert len(pins) == 8 + 7 + 2 + 6  # 4x4 keypad, segments a-g, two digits, six lamps
    assert len(set(pins.values())) == len(pins), "default pins overlap"


def test_the_packaged_defaults_file_is_what_default_config_reads():
    text = resources.files("croupier").joinpath("default-config.toml").read_text(encoding="utf-8")
    raw = tomllib.loads(text)
    config = default_config()
    assert config.table.id == raw["table"]["id"]
    assert config.wheel.protocol == raw["wheel"]["protocol"]
    assert [b.id for b in config.balls] == [b["id"] for b in raw["balls"]]


# --- a file over the defaults -----------------------------------------------------------------


def test_a_file_holds_only_what_it_changes(tmp_path):
    config = load_config(write(tmp_path, '[table]\nid = "T7"\nminimum = 2.5\ncurrency = "RUB"\n'))
    assert config.table.id == "T7"
    assert config.table.minimum == Decimal("2.5")
    assert config.table.currency == "RUB"
    assert config.table.profile == default_config().table.profile
    assert config.source == tmp_path / "croupier.toml"


def test_money_is_exact(tmp_path):
    config = load_config(write(tmp_path, "[table]\nminimum = 0.1\n"))
    assert config.table.minimum * 3 == Decimal("0.3")


def test_the_values_posted_at_the_table_are_read_exactly(tmp_path):
    # PT-A 9: the minimum or another value posted at the table, up to the plein maximum (30 x 5 = 150)
    config = load_config(write(tmp_path, "[table]\nposted_values = [7.5, 25, 150]\n"))
    assert config.table.posted_values == (Decimal("7.5"), Decimal(25), Decimal(150))
    assert default_config().table.posted_values == ()


def test_a_list_replaces_the_default_list(tmp_path):
    config = load_config(write(tmp_path, 'colours = ["gold", "silver"]\n'))
    assert config.colours == ("gold", "silver")


def test_a_table_without_a_sensor(tmp_path):
    config = load_config(write(tmp_path, '[wheel]\nprotocol = "none"\n'))
    assert config.wheel is None


def test_every_wheel_protocol_name_is_accepted(tmp_path):
    for protocol in ("cammegh-ss2", "cammegh-m360-basic", "cammegh-m360-advanced", "cammegh-m360-extended", "line"):
        config = load_config(write(tmp_path, f'[wheel]\nprotocol = "{protocol}"\ndevice = "/dev/ttyUSB0"\nbaud = 19200\n'))
        assert (config.wheel.protocol, config.wheel.device, config.wheel.baud) == (protocol, "/dev/ttyUSB0", 19200)


def test_every_profile_of_the_regulations_is_accepted(tmp_path):
    for profile in ("pt-americana", "pt-americana-2002", "pt-srij-french", "ru-american", "mt-fair"):
        assert load_config(write(tmp_path, f'[table]\nprofile = "{profile}"\n')).table.profile == profile


def test_a_display_board_switched_off_frees_its_pins(tmp_path):
    text = '[display]\nenabled = false\n[keypad]\nkind = "gpio"\nrows = [4, 17, 27, 22]\ncolumns = [23, 24, 25, 18]\n'
    config = load_config(write(tmp_path, text))
    assert config.display is None
    assert config.keypad.rows == (4, 17, 27, 22)


def test_relative_paths_live_in_the_services_state_directory(tmp_path):
    text = '[journal]\npath = "table.db"\n[logging]\nfile = "logs/croupier.log"\n'
    config = load_config(write(tmp_path, text), environ={"STATE_DIRECTORY": "/var/lib/croupier"})
    assert config.journal_path == Path("/var/lib/croupier/table.db")
    assert config.logging.file == Path("/var/lib/croupier/logs/croupier.log")


def test_absolute_paths_stay_as_written(tmp_path):
    config = load_config(write(tmp_path, '[journal]\npath = "/srv/journal/t1.db"\n'), environ={"STATE_DIRECTORY": "/var/lib/croupier"})
    assert config.journal_path == Path("/srv/journal/t1.db")


def test_without_a_state_directory_relative_paths_are_in_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert default_config(environ={}).journal_path == tmp_path / "journal.db"


def test_commands_find_the_file_from_the_argument_or_the_environment(tmp_path):
    path = write(tmp_path, '[table]\nid = "FROM-ENV"\n')
    assert config_from_argument(None, {"CROUPIER_CONFIG": str(path)}).table.id == "FROM-ENV"
    other = write(tmp_path, '[table]\nid = "FROM-ARG"\n', "other.toml")
    assert config_from_argument(str(other), {"CROUPIER_CONFIG": str(path)}).table.id == "FROM-ARG"


# --- errors name the file and the key ---------------------------------------------------------


@pytest.mark.parametrize(
    "text, key, words",
    [
        ('[tabel]\nid = "T1"\n', "tabel", "unknown key"),
        ("[table]\nminimun = 5\n", "table.minimun", "unknown key"),
        ('[table]\nminimum = "five"\n', "table.minimum", "expected a number"),
        ("[table]\nminimum = 0\n", "table.minimum", "above zero"),
        ("[table]\nminimum = -5\n", "table.minimum", "above zero"),
        ("[table]\nminimum = nan\n", "table.minimum", "expected a number"),
        ("[table]\nminimum = inf\n", "table.minimum", "expected a number"),
        ('[table]\nlanguage = "fr"\n', "table.language", "'fr' is not one of: en, "),
        ('[table]\nprofile = "pt-french"\n', "table.profile", "'pt-french' is not one of"),
        ('[table]\ncurrency = "euro"\n', "table.currency", "not allowed"),
        ('[table]\nid = "table one"\n', "table.id", "not allowed"),
        ('[table]\nname = "  "\n', "table.name", "empty"),
        ('[wheel]\nprotocol = "cammegh-ss3"\n', "wheel.protocol", "'cammegh-ss3' is not one of"),
        ('[wheel]\ndevice = "ttyUSB0"\n', "wheel.device", "not a device path"),
        ("[wheel]\nbaud = 9601\n", "wheel.baud", "not a serial speed"),
        ("[wheel]\nbaud = true\n", "wheel.baud", "expected a whole number"),
        ("[wheel]\nbaud = 9600.0\n", "wheel.baud", "expected a whole number"),
        ('[keypad]\nkind = "bluetooth"\n', "keypad.kind", "not one of: usb, gpio"),
        ('[keypad]\nkind = "gpio"\nrows = [5, 6, 13]\n', "keypad.rows", "expected 4 entries, got 3"),
        ("[keypad]\ncolumns = [12, 16, 20, 28]\n", "keypad.columns[3]", "not a GPIO"),
        ("[keypad]\ncolumns = [12, 16, 1, 21]\n", "keypad.columns[2]", "not a GPIO"),
        ('[display]\nenabled = "yes"\n', "display.enabled", "expected true or false"),
        ("[display]\nlamps = 3\n", "display.lamps", "expected a table"),
        ("[display.lamps]\nblue = 5\n", "display.lamps.blue", "unknown key"),
        ("[display]\ndigits = [7]\n", "display.digits", "expected 2 entries"),
        ("colours = []\n", "colours", "at least one colour"),
        ('colours = ["red", "Red"]\n', "colours[1]", "listed twice"),
        ('colours = ["red", 5]\n', "colours[1]", "expected a colour name"),
        ('[[staff]]\nname = "Ana"\nrole = "dealer"\n', "staff[0].role", "'dealer' is not one of: croupier, inspector, pit-boss"),
        ('[[staff]]\nname = "Ana"\nrole = "croupier"\n[[staff]]\nname = "Ana"\nrole = "inspector"\n', "staff[1].name", "listed twice"),
        ('[[staff]]\nname = "Ana"\nrole = "croupier"\npin = "1234"\n', "staff[0].pin", "unknown key"),
        ('[journal]\npath = ""\n', "journal.path", "empty"),
        ('[logging]\nlevel = "verbose"\n', "logging.level", "not one of"),
        ('[logging]\ndestination = "syslog"\n', "logging.destination", "not one of"),
        ("[table]\nposted_values = 25\n", "table.posted_values", "expected a list"),
        ('[table]\nposted_values = ["ten"]\n', "table.posted_values[0]", "expected an amount"),
        ("[table]\nposted_values = [10, 0]\n", "table.posted_values[1]", "above zero"),
        ("[table]\nposted_values = [10, 10]\n", "table.posted_values[1]", "listed twice"),
        # PT-A 9: up to the plein maximum, 30 x the 5 minimum
        ("[table]\nposted_values = [155]\n", "table.posted_values[0]", "above the plein maximum 150 (PT-A 9)"),
        # PT-B 9: a whole multiple of the minimum; RU 4.7: one of the listed values
        ('[table]\nprofile = "pt-americana-2002"\nposted_values = [7.5]\n', "table.posted_values[0]",
         "not the table minimum 5 or a whole multiple of it (PT-B 9)"),
        ('[table]\nprofile = "ru-american"\nposted_values = [3]\n', "table.posted_values[0]",
         "one of 1, 2, 5, 10, 25, 100"),
    ],
)
def test_a_wrong_value_is_refused_naming_its_key(tmp_path, text, key, words):
    error = error_for(tmp_path, text)
    assert error.key == key
    assert words in str(error)


def test_one_ball_is_not_enough(tmp_path):
    error = error_for(tmp_path, '[[balls]]\nid = "A"\ndiameter_mm = 21\n')
    assert error.key == "balls" and "PT-A 17" in str(error)


def test_two_balls_with_one_id_are_refused(tmp_path):
    error = error_for(tmp_path, '[[balls]]\nid = "A"\ndiameter_mm = 21\n[[balls]]\nid = "A"\ndiameter_mm = 21\n')
    assert error.key == "balls[1].id"


@settings(max_examples=60)
@given(diameter=st.decimals(min_value=10, max_value=30, places=2))
def test_a_ball_is_accepted_exactly_when_it_measures_18_to_24_mm(tmp_path_factory, diameter):
    # PT-A 17: balls of 18 to 24 mm.
    text = f'[[balls]]\nid = "A"\ndiameter_mm = {diameter}\n[[balls]]\nid = "B"\ndiameter_mm = 21\n'
    path = write(tmp_path_factory.mktemp("ball"), text)
    if Decimal(18) <= diameter <= Decimal(24):
        assert load_config(path).balls[0].diameter_mm == diameter
    else:
        with pytest.raises(ConfigError) as caught:
            load_config(path)
        assert caught.value.key == "balls[0].diameter_mm"


def test_a_pin_used_twice_names_both_uses(tmp_path):
    error = error_for(tmp_path, '[keypad]\nkind = "gpio"\nrows = [5, 6, 13, 23]\n')
    assert error.key == "display.lamps.red"
    assert "GPIO 23 is already used by keypad.rows[3]" in str(error)


def test_a_wheel_on_the_pi_uart_keeps_its_pins(tmp_path):
    text = '[wheel]\ndevice = "/dev/serial0"\n[display.lamps]\nvoid = 14\n'
    error = error_for(tmp_path, text)
    assert error.key == "display.lamps.void" and "UART" in str(error)
    # The same pin is fine when the wheel is on a USB adapter.
    assert load_config(write(tmp_path, text.replace("/dev/serial0", "/dev/ttyUSB0"))).display.lamps.void == 14


def test_not_toml_names_the_file_and_the_line(tmp_path):
    error = error_for(tmp_path, "[table]\nminimum = = 5\n")
    assert "not valid TOML" in str(error) and "line 2" in str(error)


def test_not_utf8_is_refused(tmp_path):
    path = tmp_path / "croupier.toml"
    path.write_bytes(b'[table]\nname = "Rol\xe9ta"\n')
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match=f"^{tmp_path / 'absent.toml'}: cannot read it"):
        load_config(tmp_path / "absent.toml")


# Each scalar key of the defaults file, and the kinds of TOML value it must refuse.
def _scalar_keys(table: dict, prefix: str = "") -> list[tuple[str, object]]:
    keys = []
    for name, value in table.items():
        dotted = f"{prefix}{name}"
        if isinstance(value, dict):
            keys += _scalar_keys(value, dotted + ".")
        elif not (isinstance(value, list) and value and isinstance(value[0], dict)):
            keys.append((dotted, value))
    return keys


DEFAULT_KEYS = _scalar_keys(
    tomllib.loads(resources.files("croupier").joinpath("default-config.toml").read_text(encoding="utf-8"))
)
SOME_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), max_size=5)
WRONG_KIND = {
    str: st.one_of(st.integers(), st.booleans(), st.just([1, 2])),
    int: st.one_of(SOME_TEXT, st.booleans(), st.just(["x"])),
    bool: st.one_of(st.integers(), SOME_TEXT),
    list: st.one_of(st.integers(), SOME_TEXT, st.booleans()),
}


def _toml(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # JSON string escapes are valid TOML basic-string escapes
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml, value)) + "]"
    return str(value)


@settings(max_examples=80)
@given(data=st.data())
def test_a_value_of_the_wrong_kind_anywhere_is_refused_naming_its_key(tmp_path_factory, data):
    key, default = data.draw(st.sampled_from(DEFAULT_KEYS), label="key")
    wrong = data.draw(WRONG_KIND[type(default)], label="value")
    *tables, name = key.split(".")
    header = f"[{'.'.join(tables)}]\n" if tables else ""
    path = write(tmp_path_factory.mktemp("kind"), f"{header}{name} = {_toml(wrong)}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.key.startswith(key), (key, str(caught.value))
    assert str(caught.value).startswith(str(path))


def test_the_pin_lock_is_set_in_minutes_and_never_for_ever(tmp_path):
    assert default_config().table.pin_lock_minutes is None  # the table's own default
    assert load_config(write(tmp_path, "[table]\npin_lock_minutes = 30\n")).table.pin_lock_minutes == 30
    for bad in ("0", "1441", '"15"', "true"):
        error = error_for(tmp_path, f"[table]\npin_lock_minutes = {bad}\n")
        assert error.key == "table.pin_lock_minutes"

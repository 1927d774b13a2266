"""The table's configuration: one TOML file over the packaged defaults (default-config.toml).

`load_config(path)` reads a file, `default_config()` the defaults alone. A file holds only what it
changes; every problem is a ConfigError naming the file and the key. Rule references are to
../shared/REGULATIONS.md.
"""
from __future__ import annotations

import logging
import os
import re
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any, Mapping

from croupier.board.names import LAMP_NAMES, SEGMENT_NAMES
from croupier.i18n import languages
from croupier.paths import CONFIG_LOOKUP, SYSTEM_CONFIG  # noqa: F401 (CONFIG_LOOKUP: for the commands)
from croupier.rules.limits import (NO_SIGN, SignError, TableLimits, TableSign, colour_value_problem,
                                   sign_from_data, sign_problem, table_limits)
from croupier.rules.names import DEFAULT_PROFILE
from croupier.rules.profiles import Profile, ProfileError, load_profile, profile_ids
from croupier.rules.record import Record
from croupier.rules.toml_file import MISSING, FileProblem, expected, not_one_of, parse, read, unknown_key

# The wheel decoders are imported where a configuration is read, so a command's --help (which only
# needs the names below) starts without them.


def __getattr__(name: str) -> Any:
    if name == "WHEEL_PROTOCOLS":  # the wheel decoders' names, as the configuration accepts them
        from croupier.wheel.registry import PROTOCOL_NAMES

        return PROTOCOL_NAMES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


NO_WHEEL = "none"  # the wheel protocol of a table without a sensor
ROLES = ("croupier", "inspector", "pit-boss")
BAUD_RATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)
LOG_LEVELS = ("debug", "info", "warning", "error")
LOG_DESTINATIONS = ("auto", "journal", "file", "none")
# BCM numbers on the 40-pin header. 0 and 1 are the HAT ID EEPROM bus, never for general use.
GPIO_PINS = range(2, 28)
# The Pi's own UART pins (TX, RX): taken when the wheel is wired to the GPIO UART.
UART_PINS = (14, 15)
UART_DEVICES = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
BALL_DIAMETER_MM = (Decimal(18), Decimal(24))  # PT-A 17
DEFAULTS_NAME = "default-config.toml"


MAX_MINIMUM = Decimal(1_000_000)  # a table minimum above this is a typing slip


MAX_PIN_LOCK_MINUTES = 24 * 60


class ConfigError(FileProblem):
    """A configuration problem: which file, which key, what is wrong."""


class TableConfig(Record):
    """The [table] section: the table's id, name, profile, minimum, currency and language."""
    id: str
    name: str
    profile: str
    minimum: Decimal
    currency: str
    language: str
    posted_values: tuple[Decimal, ...] = ()  # PT-A 9: colour chip values posted besides the minimum
    house: Path | None = None  # the house directory: its own profiles/*.toml and locale/*.po
    sign: TableSign = NO_SIGN  # the table sign: the house's minima and maxima per kind of bet
    time_zone: str | None = None  # IANA name every reader shows times in; None: the machine's
    casino: str = ""  # the casino's name, on the paper
    value_only: bool = False  # PT-B 15b: a table that uses value chips only (no colour chips)
    marked_values: tuple[Decimal, ...] = ()  # PT-A 16: values of the value-marked chips offered, on any bet
    pin_lock_minutes: int | None = None  # how long wrong PINs lock a PIN; None: the table's default
    clock_tolerance_seconds: int = 10  # a step of the system clock beyond this is a jump: recorded, not followed


class Ball(Record):
    """A registered ball of the [[balls]] list."""
    id: str
    diameter_mm: Decimal


class StaffMember(Record):
    """A member of the [[staff]] list and their role."""
    name: str
    role: str


class WheelConfig(Record):
    """The [wheel] section: the sensor's protocol and its serial port."""
    protocol: str
    device: str
    baud: int


class KeypadConfig(Record):
    """The [keypad] section: a USB keypad, or the GPIO matrix and its pins."""
    kind: str  # "usb" or "gpio"
    rows: tuple[int, ...]  # BCM pins, used when kind is "gpio"
    columns: tuple[int, ...]


class Lamps(Record):
    """The display board's lamps and their GPIO pins."""
    red: int
    black: int
    green: int
    bets_open: int
    no_more_bets: int
    void: int


class DisplayBoardConfig(Record):
    """The [display] section: the board's segments, digits and lamps."""
    segments: tuple[int, ...]  # a..g
    digits: tuple[int, int]  # tens, units
    lamps: Lamps
    active_high: bool


class LoggingConfig(Record):
    """The [logging] section: the level and where the log goes."""
    level: str
    destination: str
    file: Path


class FloorConfig(Record):
    """The [floor] section: where the table publishes its journal, and with which credentials."""
    url: str | None  # NATS server URL(s) of the casino floor; None: the table publishes nowhere
    floor_key: Path | None = None  # the floor's public key: only receipts it signed are recorded
    credentials: Path | None = None  # the table's NATS login (mode 0600), never in the URL
    ca: Path | None = None  # the casino's CA for the broker's TLS certificate


class Config(Record):
    """The whole configuration file, checked."""
    table: TableConfig
    colours: tuple[str, ...]
    balls: tuple[Ball, ...]
    staff: tuple[StaffMember, ...]
    wheel: WheelConfig | None  # None: no sensor, results come from the keypad
    keypad: KeypadConfig
    display: DisplayBoardConfig | None  # None: no display board wired
    journal_path: Path
    logging: LoggingConfig
    source: Path | None  # the file read, None for the defaults alone
    journal_key: Path | None = None  # the table's key (croupier.journal.key); None: table.key beside the journal
    floor: FloorConfig = FloorConfig(url=None)

    def gpio_pins(self) -> dict[str, int]:
        """Every GPIO pin the configuration uses, by the key that names it."""
        pins: dict[str, int] = {}
        if self.keypad.kind == "gpio":
            pins.update({f"keypad.rows[{i}]": p for i, p in enumerate(self.keypad.rows)})
            pins.update({f"keypad.columns[{i}]": p for i, p in enumerate(self.keypad.columns)})
        if self.display is not None:
            pins.update({f"display.segments[{i}]": p for i, p in enumerate(self.display.segments)})
            pins.update({f"display.digits[{i}]": p for i, p in enumerate(self.display.digits)})
            pins.update({f"display.lamps.{n}": getattr(self.display.lamps, n) for n in LAMP_NAMES})
        return pins


def default_config(environ: Mapping[str, str] | None = None) -> Config:
    """The packaged defaults: enough to run the demo."""
    return _build(_defaults_raw(), DEFAULTS_NAME, None, os.environ if environ is None else environ)


def load_config(path: str | os.PathLike[str], environ: Mapping[str, str] | None = None) -> Config:
    """The file at `path` over the defaults. Raises ConfigError naming the file and the key."""
    path = Path(path)
    try:
        raw = read(path)
    except FileProblem as problem:
        raise ConfigError(problem.source, problem.key, problem.problem) from None
    merged = _merge(_defaults_raw(), raw)
    return _build(merged, str(path), path, os.environ if environ is None else environ)


def config_path(argument: str | None, environ: Mapping[str, str] | None = None) -> Path | None:
    """Which file a command reads: --config, else CONFIG_LOOKUP; None means the defaults alone."""
    environ = os.environ if environ is None else environ
    if argument:
        return Path(argument)
    if environ.get("CROUPIER_CONFIG"):
        return Path(environ["CROUPIER_CONFIG"])
    return SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None


def config_from_argument(argument: str | None, environ: Mapping[str, str] | None = None) -> Config:
    """The configuration a command runs with, given its --config argument (or None)."""
    path = config_path(argument, environ)
    return default_config(environ) if path is None else load_config(path, environ)


def setup_logging(config: LoggingConfig, environ: Mapping[str, str] | None = None) -> logging.Handler | None:
    """Send croupier's log where the configuration says; returns the handler installed, if any.

    The Textual screens draw on stderr, so the log never goes there: under systemd it goes to the
    journal through stdout (StandardOutput=journal in the units), elsewhere to a file.
    """
    environ = os.environ if environ is None else environ
    destination = config.destination
    if destination == "auto":
        destination = "journal" if stdout_is_journal(environ) else "file"
    if destination == "none":
        return None
    if destination == "journal":
        handler: logging.Handler = logging.StreamHandler(sys.__stdout__)
        handler.setFormatter(_JournalFormatter())
    else:
        config.file.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(config.file, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("croupier")
    logger.setLevel(config.level.upper())
    logger.addHandler(handler)
    return handler


def stdout_is_journal(environ: Mapping[str, str]) -> bool:
    """True when systemd connected our stdout to the journal: $JOURNAL_STREAM names its device and
    inode. A child process (textual-serve's) inherits the variable but not that stdout."""
    try:
        device, inode = (int(x) for x in environ["JOURNAL_STREAM"].split(":"))
        if sys.__stdout__ is None:  # started with no stdout at all
            return False
        st = os.fstat(sys.__stdout__.fileno())
    except (KeyError, ValueError, OSError):
        return False
    return (st.st_dev, st.st_ino) == (device, inode)


class _JournalFormatter(logging.Formatter):
    """journald reads a leading <N> as the syslog priority of the line."""

    PRIORITIES = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        priority = self.PRIORITIES.get(record.levelno, 6)
        return "\n".join(f"<{priority}>{line}" for line in super().format(record).splitlines())


def _defaults_raw() -> dict[str, Any]:
    text = (Path(__file__).parent / DEFAULTS_NAME).read_text(encoding="utf-8")  # importlib.resources: 10 ms more at start
    return parse(text, DEFAULTS_NAME)


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Tables merge key by key; any other value (lists included) replaces the default."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merged[key] = _merge(base[key], value)
        else:
            merged[key] = value
    return merged


class _Reader:
    """Reads one TOML table, checking types and ranges; errors carry the file and the dotted key."""

    def __init__(self, source: str, prefix: str, data: Any):
        self.source, self.prefix = source, prefix
        if not isinstance(data, dict):
            raise self.error("", expected("a table", data))
        self.data = data

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def error(self, name: str, problem: str) -> ConfigError:
        return ConfigError(self.source, self.key(name) if name else self.prefix, problem)

    def only(self, *names: str) -> None:
        for name in self.data:
            if name not in names:
                raise self.error(name, unknown_key(names))

    def value(self, name: str) -> Any:
        if name not in self.data:
            raise self.error(name, MISSING)
        return self.data[name]

    def text(self, name: str, pattern: str | None = None, choices: tuple[str, ...] = ()) -> str:
        value = self.value(name)
        if not isinstance(value, str):
            raise self.error(name, expected("text", value))
        if choices and value not in choices:
            raise self.error(name, not_one_of(value, choices))
        if not value.strip():
            raise self.error(name, "must not be empty")
        if pattern and not re.fullmatch(pattern, value):
            raise self.error(name, f"{value!r} is not allowed here")
        return value

    def integer(self, name: str, value: Any = None) -> int:
        value = self.value(name) if value is None else value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(name, expected("a whole number", value))
        return value

    def number(self, name: str) -> Decimal:
        value = self.value(name)
        if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
            raise self.error(name, expected("a number", value))
        value = Decimal(value)
        if not value.is_finite():
            raise self.error(name, f"expected a number, got {value}")
        return value

    def flag(self, name: str) -> bool:
        value = self.value(name)
        if not isinstance(value, bool):
            raise self.error(name, expected("true or false", value))
        return value

    def array(self, name: str, length: int | None = None) -> list[Any]:
        value = self.value(name)
        if not isinstance(value, list):
            raise self.error(name, expected("a list", value))
        if length is not None and len(value) != length:
            raise self.error(name, f"expected {length} entries, got {len(value)}")
        return value

    def pin(self, name: str, value: Any = None) -> int:
        pin = self.integer(name, value)
        if pin not in GPIO_PINS:
            raise self.error(name, f"{pin} is not a GPIO of the 40-pin header (BCM 2-27)")
        return pin

    def pins(self, name: str, length: int) -> tuple[int, ...]:
        values = self.array(name, length)
        return tuple(self.pin(f"{name}[{i}]", v) for i, v in enumerate(values))

    def path(self, name: str, base: Path) -> Path:
        return base / Path(self.text(name))  # an absolute path stays as it is

    def section(self, name: str) -> "_Reader":
        return _Reader(self.source, self.key(name), self.value(name))


def _build(raw: dict[str, Any], source: str, path: Path | None, environ: Mapping[str, str]) -> Config:
    top = _Reader(source, "", raw)
    top.only("table", "colours", "balls", "staff", "wheel", "keypad", "display", "journal", "logging", "floor")
    state_dir = Path(environ.get("STATE_DIRECTORY", "").split(":")[0] or ".").absolute()
    config = Config(
        table=_table(top.section("table"), Path(source).parent if path is not None else Path(".")),
        colours=_colours(top),
        balls=_balls(top),
        staff=_staff(top),
        wheel=_wheel(top.section("wheel")),
        keypad=_keypad(top.section("keypad")),
        display=_display(top.section("display")),
        journal_path=_journal(top.section("journal"), state_dir),
        logging=_logging(top.section("logging"), state_dir),
        source=path,
        journal_key=_journal_key(top.section("journal"), state_dir),
        floor=_floor(top.section("floor"), Path(source).parent if path is not None else Path(".")),
    )
    _check_pins(config, source)
    return config


def _floor(r: _Reader, base: Path) -> FloorConfig:
    r.only("url", "floor_key", "credentials", "ca")
    url = r.value("url")
    if not isinstance(url, str):
        raise r.error("url", expected("text", url))
    url = url.strip()
    if "@" in url:  # said before anything quotes the URL: its password never reaches a message
        raise r.error("url", "holds a login: name the credentials file in [floor] credentials instead")
    if url and not all(part.strip().startswith(("nats://", "tls://")) for part in url.split(",")):
        raise r.error("url", f"{url!r} is not a NATS URL (nats://HOST:PORT, several separated by commas)")

    def file(name: str) -> Path | None:
        value = r.data.get(name, "")
        if not isinstance(value, str):
            raise r.error(name, expected("text", value))
        return base / value.strip() if value.strip() else None

    return FloorConfig(url=url or None, floor_key=file("floor_key"), credentials=file("credentials"), ca=file("ca"))


TABLE_KEYS = ("id", "name", "profile", "minimum", "currency", "language", "posted_values", "house_directory",
              "sign", "time_zone", "casino", "value_only", "marked_values", "pin_lock_minutes",
              "clock_tolerance_seconds")


def read_sign(path: str | os.PathLike[str], profile: str | None = None,
              house: str | None = None) -> tuple[Profile, TableLimits]:
    """The profile and table limits a sign file posts: its [table] minimum and [table.sign] (a
    configuration file will do), read and checked as the table reads its configuration. The profile
    is `profile`, else the file's table.profile, else the default. Raises ConfigError or ProfileError."""
    try:
        raw = read(path)
    except FileProblem as problem:
        raise ConfigError(problem.source, problem.key, problem.problem) from None
    r = _Reader(str(path), "", raw).section("table")
    r.only(*TABLE_KEYS)
    minimum = _minimum(r)
    if profile is None:
        profile = r.text("profile", choices=profile_ids(house)) if "profile" in r.data else DEFAULT_PROFILE
    rules = load_profile(profile, house)
    return rules, table_limits(rules, minimum, _sign(r, rules, minimum))


def _minimum(r: _Reader) -> Decimal:
    minimum = r.number("minimum")
    if not 0 < minimum <= MAX_MINIMUM:
        raise r.error("minimum", f"the table minimum must be above zero and at most {MAX_MINIMUM}, got {minimum}")
    if minimum != minimum.quantize(Decimal("0.01")):
        raise r.error("minimum", f"the table minimum is money: at most 2 decimal places, got {minimum}")
    return minimum


def _table(r: _Reader, base: Path) -> TableConfig:
    r.only(*TABLE_KEYS)
    minimum = _minimum(r)
    house = _house(r, base)
    profile = r.text("profile", choices=profile_ids(house))
    try:
        rules = load_profile(profile, house)
    except ProfileError as error:
        raise r.error("profile", str(error)) from None
    sign = _sign(r, rules, minimum)
    return TableConfig(
        id=r.text("id", pattern=r"[A-Za-z0-9._-]{1,32}"),
        name=r.text("name"),
        profile=profile,
        minimum=minimum,
        currency=r.text("currency", pattern=r"[A-Z]{3}"),
        language=r.text("language", choices=languages(house)),
        posted_values=_posted_values(r, rules, minimum, sign),
        house=house,
        sign=sign,
        time_zone=_time_zone(r),
        casino=r.text("casino") if "casino" in r.data else "",
        value_only=_value_only(r, rules),
        marked_values=_marked_values(r, rules),
        pin_lock_minutes=_pin_lock_minutes(r),
        clock_tolerance_seconds=_clock_tolerance(r),
    )


def _pin_lock_minutes(r: _Reader) -> int | None:
    if "pin_lock_minutes" not in r.data:
        return None
    minutes = r.integer("pin_lock_minutes")
    if not 1 <= minutes <= MAX_PIN_LOCK_MINUTES:
        raise r.error("pin_lock_minutes", f"a PIN is locked for 1 to {MAX_PIN_LOCK_MINUTES} minutes (a day), "
                                          f"not {minutes}: a lock for ever would lock the table out")
    return minutes


def _clock_tolerance(r: _Reader) -> int:
    if "clock_tolerance_seconds" not in r.data:
        return TableConfig.clock_tolerance_seconds
    seconds = r.integer("clock_tolerance_seconds")
    if not 1 <= seconds <= 3600:
        raise r.error("clock_tolerance_seconds", f"between 1 and 3600 seconds, got {seconds}")
    return seconds


def _value_only(r: _Reader, profile) -> bool:
    """PT-B 15b: a table that uses value chips only; only a profile whose text allows it."""
    if "value_only" not in r.data or not r.flag("value_only"):
        return False
    if not profile.value_chips.value_only_rule:
        raise r.error("value_only", f"{profile.id} has no tables of value chips only ({profile.value_chips.rule}; "
                                    "PT-B 15b allows them under pt-americana-2002)")
    return True


def _marked_values(r: _Reader, profile) -> tuple[Decimal, ...]:
    """PT-A 16: the values of the value-marked chips the table offers (money), which go on any bet;
    only a profile whose text allows them."""
    if "marked_values" not in r.data:
        return ()
    entries = r.array("marked_values")
    if entries and not profile.value_chips.marked_rule:
        raise r.error("marked_values", f"{profile.id} has no value-marked chips ({profile.value_chips.rule}; "
                                       "PT-A 16 offers them under pt-americana)")
    values: list[Decimal] = []
    for i, value in enumerate(entries):
        key = f"marked_values[{i}]"
        if isinstance(value, bool) or not isinstance(value, (int, Decimal)) or not Decimal(value).is_finite():
            raise r.error(key, expected("an amount", value))
        value = Decimal(value)
        if value <= 0 or value > MAX_MINIMUM:
            raise r.error(key, f"a chip's value is above zero and at most {MAX_MINIMUM}, not {value}")
        if value != value.quantize(Decimal("0.01")):
            raise r.error(key, f"a chip's value is money: at most 2 decimal places, got {value}")
        if value in values:
            raise r.error(key, f"{value} is listed twice (also marked_values[{values.index(value)}])")
        values.append(value)
    return tuple(values)


def _time_zone(r: _Reader) -> str | None:
    """The table's time zone, checked against the system's time zone database."""
    if "time_zone" not in r.data:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    name = r.text("time_zone")
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise r.error("time_zone", f"{name!r} is not a time zone the system knows (an IANA name such as "
                                   "Europe/Lisbon)") from None
    return name


def _house(r: _Reader, base: Path) -> Path | None:
    """The house directory, relative to the configuration file's folder; it must exist."""
    if "house_directory" not in r.data:
        return None
    house = r.path("house_directory", base)
    if not house.is_dir():
        raise r.error("house_directory", f"{house} is not a directory (it holds profiles/ and locale/)")
    return house


def _sign(r: _Reader, profile, minimum: Decimal) -> TableSign:
    """The table sign (RU 4.8, FR): each entry within the profile's cap at this minimum."""
    if "sign" not in r.data:
        return NO_SIGN
    data = r.value("sign")
    if not isinstance(data, dict):
        raise r.error("sign", expected("a table", data))
    try:
        sign = sign_from_data(data)
        problem = sign_problem(profile, minimum, sign)
    except SignError as error:
        problem = error
    if problem is not None:
        raise r.error(f"sign.{problem.key}", problem.problem)
    return sign


def _posted_values(r: _Reader, profile, minimum: Decimal, sign: TableSign) -> tuple[Decimal, ...]:
    """PT-A 9: the colour chip values the table posts besides its minimum; each one a colour could
    be given under the profile (the rules' own check: up to the plein maximum, the sign's where it
    posts a lower one, and for a profile without posted values, a value it allows anyway)."""
    limits = table_limits(profile, minimum, sign)
    values: list[Decimal] = []
    for i, value in enumerate(r.array("posted_values")):
        key = f"posted_values[{i}]"
        if isinstance(value, bool) or not isinstance(value, (int, Decimal)) or not Decimal(value).is_finite():
            raise r.error(key, expected("an amount", value))
        value = Decimal(value)
        if value <= 0:
            raise r.error(key, f"a colour chip's value is above zero, not {value}")
        if value in values:
            raise r.error(key, f"{value} is listed twice (also posted_values[{values.index(value)}])")
        problem = colour_value_problem(limits, value, posted=(value,))
        if problem:
            raise r.error(key, problem)
        values.append(value)
    return tuple(values)


def _colours(top: _Reader) -> tuple[str, ...]:
    names = top.array("colours")
    if not names:
        raise top.error("colours", "a table needs at least one colour (PT-A 8)")
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise top.error(f"colours[{i}]", expected("a colour name", name))
        if name.casefold() in seen:
            raise top.error(f"colours[{i}]", f"{name!r} is listed twice (also colours[{seen[name.casefold()]}])")
        seen[name.casefold()] = i
    return tuple(names)


def _balls(top: _Reader) -> tuple[Ball, ...]:
    entries = top.array("balls")
    if len(entries) < 2:
        raise top.error("balls", f"a table needs two balls used alternately (PT-A 17), got {len(entries)}")
    balls: list[Ball] = []
    for i, entry in enumerate(entries):
        r = _Reader(top.source, f"balls[{i}]", entry)
        r.only("id", "diameter_mm")
        ball = Ball(id=r.text("id"), diameter_mm=r.number("diameter_mm"))
        low, high = BALL_DIAMETER_MM
        if not low <= ball.diameter_mm <= high:
            raise r.error("diameter_mm", f"{ball.diameter_mm} mm is outside {low}-{high} mm (PT-A 17)")
        if any(b.id == ball.id for b in balls):
            raise r.error("id", f"ball {ball.id!r} is listed twice")
        balls.append(ball)
    return tuple(balls)


def _staff(top: _Reader) -> tuple[StaffMember, ...]:
    members: list[StaffMember] = []
    for i, entry in enumerate(top.array("staff")):
        r = _Reader(top.source, f"staff[{i}]", entry)
        r.only("name", "role")
        member = StaffMember(name=r.text("name"), role=r.text("role", choices=ROLES))
        if any(m.name == member.name for m in members):
            raise r.error("name", f"{member.name!r} is listed twice")
        members.append(member)
    return tuple(members)


def _wheel(r: _Reader) -> WheelConfig | None:
    r.only("protocol", "device", "baud")
    from croupier.wheel.registry import PROTOCOL_NAMES

    protocol = r.text("protocol", choices=(*PROTOCOL_NAMES, NO_WHEEL))
    device = r.text("device")
    if not device.startswith("/"):
        raise r.error("device", f"{device!r} is not a device path such as /dev/croupier-wheel")
    baud = r.integer("baud")
    if baud not in BAUD_RATES:
        raise r.error("baud", f"{baud} is not a serial speed; use one of {', '.join(map(str, BAUD_RATES))}")
    # Keys a table does not use yet are still checked: switching them on later must not surprise.
    return None if protocol == NO_WHEEL else WheelConfig(protocol=protocol, device=device, baud=baud)


def _keypad(r: _Reader) -> KeypadConfig:
    r.only("kind", "rows", "columns")
    return KeypadConfig(kind=r.text("kind", choices=("usb", "gpio")), rows=r.pins("rows", 4), columns=r.pins("columns", 4))


def _display(r: _Reader) -> DisplayBoardConfig | None:
    r.only("enabled", "active_high", "segments", "digits", "lamps")
    enabled = r.flag("enabled")
    lamps = r.section("lamps")
    lamps.only(*LAMP_NAMES)
    tens, units = r.pins("digits", 2)
    board = DisplayBoardConfig(
        segments=r.pins("segments", len(SEGMENT_NAMES)),
        digits=(tens, units),
        lamps=Lamps(**{name: lamps.pin(name) for name in LAMP_NAMES}),
        active_high=r.flag("active_high"),
    )
    return board if enabled else None


def _journal(r: _Reader, state_dir: Path) -> Path:
    r.only("path", "key")
    return r.path("path", state_dir)


def _journal_key(r: _Reader, state_dir: Path) -> Path | None:
    return r.path("key", state_dir) if "key" in r.data else None


def _logging(r: _Reader, state_dir: Path) -> LoggingConfig:
    r.only("level", "destination", "file")
    return LoggingConfig(
        level=r.text("level", choices=LOG_LEVELS),
        destination=r.text("destination", choices=LOG_DESTINATIONS),
        file=r.path("file", state_dir),
    )


def _check_pins(config: Config, source: str) -> None:
    """Each pin in use drives one thing and keeps off the wheel's UART."""
    uart = config.wheel.device if config.wheel is not None and config.wheel.device in UART_DEVICES else None
    owner: dict[int, str] = {}
    for key, pin in config.gpio_pins().items():
        if uart and pin in UART_PINS:
            raise ConfigError(
                source, key, f"GPIO {pin} is the UART the wheel uses ({uart}); pick another pin"
            )
        if pin in owner:
            raise ConfigError(source, key, f"GPIO {pin} is already used by {owner[pin]}")
        owner[pin] = key

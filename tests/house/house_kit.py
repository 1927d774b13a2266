"""A house directory written as files only: a sixth profile and a fifth language beside the shipped
ones, as a casino adds its own without a change of code."""
from __future__ import annotations

from pathlib import Path

from croupier.rules.profiles import PACKAGED_PROFILES

HOUSE_PROFILE = "house-american"
HOUSE_LANGUAGE = "eo"  # Esperanto: no catalog of croupier's has it
HOUSE_PLEIN_RATIO = 20  # the house's own cap, not RU's 30
HOUSE_WORDS = {"No more bets": "Ne plu vetoj", "Place your bets": "Faru viajn vetojn"}


def house_profile_text(plein_ratio: int = HOUSE_PLEIN_RATIO) -> str:
    """ru-american's file, renamed, with its own plein cap."""
    text = (Path(PACKAGED_PROFILES) / "ru-american.toml").read_text(encoding="utf-8")
    text = text.replace('id = "ru-american"', f'id = "{HOUSE_PROFILE}"', 1)
    text = text.replace('name = "Американская рулетка (RU)"', 'name = "The house\'s American"', 1)
    assert "\nplein = 30\n" in text, "ru-american.toml's plein ratio moved"
    return text.replace("\nplein = 30\n", f"\nplein = {plein_ratio}\n", 1)

def write_house(folder: Path, plein_ratio: int = HOUSE_PLEIN_RATIO) -> Path:
    """folder/profiles/house-american.toml and folder/locale/eo.po; returns the folder."""
    (folder / "profiles").mkdir(parents=True, exist_ok=True)
    (folder / "locale").mkdir(exist_ok=True)
    (folder / "profiles" / f"{HOUSE_PROFILE}.toml").write_text(house_profile_text(plein_ratio), encoding="utf-8")
    entries = "".join(f'msgid "{en}"\nmsgstr "{eo}"\n\n' for en, eo in HOUSE_WORDS.items())
    (folder / "locale" / f"{HOUSE_LANGUAGE}.po").write_text(
        'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n' + entries, encoding="utf-8")
    return folder

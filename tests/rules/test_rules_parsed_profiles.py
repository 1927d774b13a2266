"""The packaged profiles parsed at build time give back exactly what the TOML reader reads, and only
for the very text that was parsed."""
import shutil

from croupier.rules import parsed_profiles
from croupier.rules.profiles import PACKAGED_PROFILES, profile_from_text
from croupier.rules.toml_file import parse, read_text


def test_each_packaged_profile_parsed_at_build_reads_as_its_text_does(tmp_path, monkeypatch):
    folder = tmp_path / "profiles"
    shutil.copytree(PACKAGED_PROFILES, folder, ignore=shutil.ignore_patterns("parsed-*.marshal"))
    parsed_profiles.write(str(folder))
    texts = [read_text(path) for path in sorted(folder.glob("*.toml"))]
    assert texts and sorted(p.name for p in folder.glob("parsed-*.marshal")) == sorted(
        {f"parsed-{len(text)}.marshal" for text in texts})
    monkeypatch.setattr(parsed_profiles, "DIRECTORY", str(folder))
    monkeypatch.setattr(parsed_profiles, "_read", {})
    for text in texts:
        assert parsed_profiles.parsed(text) == parse(text, "a profile")
        assert parsed_profiles.parsed(text + "\n") is None  # any other text is parsed as ever
        assert parsed_profiles.parsed(text[:-1] + "#") is None  # also one of the same length
    profile_from_text.cache_clear()
    assert profile_from_text(texts[0]).text == texts[0]


def test_a_missing_or_broken_file_means_parsing_as_ever(tmp_path, monkeypatch):
    text = 'id = "ru-american"'
    (tmp_path / f"parsed-{len(text)}.marshal").write_bytes(b"\x00not marshal")
    for folder in (tmp_path / "none", tmp_path):
        monkeypatch.setattr(parsed_profiles, "DIRECTORY", str(folder))
        monkeypatch.setattr(parsed_profiles, "_read", {})
        assert parsed_profiles.parsed(text) is None

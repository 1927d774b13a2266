"""The packaged profiles parsed at build time give back exactly what the TOML reader reads, and only
for the very text that was parsed."""
import marshal
import shutil

from croupier.rules import parsed_profiles
from croupier.rules.profiles import PACKAGED_PROFILES, profile_from_text
from croupier.rules.toml_file import parse, read_text


def test_each_packaged_profile_parsed_at_build_reads_as_its_text_does(tmp_path, monkeypatch):
    folder = tmp_path / "profiles"
    shutil.copytree(PACKAGED_PROFILES, folder, ignore=shutil.ignore_patterns("parsed.marshal"))
    parsed_profiles.write(str(folder))
    stored = marshal.loads((folder / "parsed.marshal").read_bytes())
    texts = [read_text(path) for path in sorted(folder.glob("*.toml"))]
    assert texts and sorted(stored) == sorted(texts)
    monkeypatch.setattr(parsed_profiles, "FILE", str(folder / "parsed.marshal"))
    monkeypatch.setattr(parsed_profiles, "_parsed", None)
    for text in texts:
        assert parsed_profiles.parsed(text) == parse(text, "a profile")
        assert parsed_profiles.parsed(text + "\n") is None  # any other text is parsed as ever
    profile_from_text.cache_clear()
    assert profile_from_text(texts[0]).text == texts[0]


def test_a_missing_or_broken_file_means_parsing_as_ever(tmp_path, monkeypatch):
    broken = tmp_path / "parsed.marshal"
    broken.write_bytes(b"\x00not marshal")
    for path in (tmp_path / "none.marshal", broken):
        monkeypatch.setattr(parsed_profiles, "FILE", str(path))
        monkeypatch.setattr(parsed_profiles, "_parsed", None)
        assert parsed_profiles.parsed("id = \"ru-american\"") is None

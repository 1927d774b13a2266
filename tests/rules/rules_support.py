"""Helpers for the rules tests: bet strategies and the shipped profiles' text."""
from importlib import resources

from hypothesis import strategies as st

from croupier.rules.bets import offered_specs


def bet_texts(profile, owners=("blue", "pink")):
    """A bet argument: SPEC, chips per unit and an owner the profile allows there."""
    return st.tuples(st.sampled_from(offered_specs(profile)), st.integers(1, 25),
                     st.sampled_from(owners)).map(lambda t: f"{t[0]}x{t[1]}@{t[2]}")


def shipped_text(profile_id: str) -> str:
    """The TOML text of a shipped profile, to copy and break in tests."""
    return (resources.files("croupier.rules") / "profiles" / f"{profile_id}.toml").read_text()

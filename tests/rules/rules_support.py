"""Helpers for the rules tests: every spec a profile accepts, bet strategies, shipped profile text."""
from importlib import resources

from hypothesis import strategies as st

from croupier.rules.announced import A_CHEVAL_PAIRS, SERIES
from croupier.rules.layout import POSITIONS


def every_spec(profile) -> list[str]:
    """Every SPEC the profile offers, written as a player would."""
    specs = [p.name for p in POSITIONS if profile.offers(p.kind)]
    specs += [name for name in SERIES if profile.offers(name)]
    specs += [f"neighbours:{n}:{k}" for n in range(37) for k in profile.neighbour_sides()]
    if profile.offers("complete"):
        specs += [f"complete:{n}" for n in range(37)]
    if profile.offers("finale-en-plein"):
        specs += [f"finale:{d}" for d in range(10)]
    if profile.offers("finale-a-cheval"):
        specs += [f"finale:{a}/{b}" for a, b in A_CHEVAL_PAIRS]
    return specs


def bet_texts(profile, owners=("blue", "pink", "value")):
    """A bet argument: SPEC, chips per unit and an owner the profile allows there."""
    return st.tuples(st.sampled_from(every_spec(profile)), st.integers(1, 25),
                     st.sampled_from(owners)).map(lambda t: f"{t[0]}x{t[1]}@{t[2]}")


def shipped_text(profile_id: str) -> str:
    """The TOML text of a shipped profile, to copy and break in tests."""
    return (resources.files("croupier.rules") / "profiles" / f"{profile_id}.toml").read_text()

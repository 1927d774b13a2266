"""Escape typed at once with the key after it, as a browser or a remote terminal sends a burst: the
terminal's reader takes the two for one key, an Alt key (Escape, j: alt+j) or, for a digit, the
character macOS's Option key makes (Escape, 2: "™"). croupier's screens have no such keys and no
such text: they are the Escape and the key typed after it, in that order (Escape closes a box or a
dialog, and the key acts on what is under it)."""
from __future__ import annotations

from textual import events
from textual._ansi_sequences import ANSI_SEQUENCES_KEYS
from textual.keys import _character_to_key

ESCAPE = "\x1b"
# "™": "2", as Textual's reader maps Escape and an ASCII character arriving together.
OPTION_CHARACTERS = {meaning: sequence[1] for sequence, meaning in ANSI_SEQUENCES_KEYS.items()
                     if len(sequence) == 2 and sequence[0] == ESCAPE and sequence[1].isascii()
                     and isinstance(meaning, str)}


def escape_then_key(event: events.Key) -> tuple[events.Key, events.Key] | None:
    """The Escape and the key that `event` is made of, or None for a key typed alone."""
    if event.character in OPTION_CHARACTERS:
        character = OPTION_CHARACTERS[event.character]
    elif event.key.startswith("alt+") and event.character and len(event.character) == 1:
        character = event.character
    else:
        return None
    return (events.Key("escape", ESCAPE),
            events.Key(character if character.isalnum() else _character_to_key(character), character))


def as_typed(event: events.Event) -> tuple[events.Event, ...]:
    """The events an app takes in for `event`: the Escape and the key a key read from the terminal is
    made of, else the event itself (a key an app hands on to its widgets was split as it came in)."""
    split = escape_then_key(event) if isinstance(event, events.Key) and not event.is_forwarded else None
    return split or (event,)

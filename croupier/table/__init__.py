"""The table session as a pure core: events, the state as a fold over them, and the commands that
check the state and the clock and return the events to record, or raise a refusal (a kind of
refusal is a class with its facts, `refusal.py`). No I/O; the clock is injected."""

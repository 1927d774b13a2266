"""The wheel sensor: the registry of the protocols croupier reads (`registry.py`, the one list the
configuration, the commands, the decoders and the simulator take them from), pure protocol decoders,
the serial link, the simulator and capture replay.

Only `link.py` imports pyserial, and only inside its functions.
"""

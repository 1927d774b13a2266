"""The wheel sensor: pure protocol decoders, the serial link, the simulator and capture replay.

Only `link.py` imports pyserial, and only inside its functions.
"""

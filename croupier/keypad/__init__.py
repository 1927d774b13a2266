"""Result entry by keypad: the pure number-entry rule, the key vocabulary, and the GPIO matrix.

Only `matrix.py` imports gpiozero, and only inside its functions.
"""

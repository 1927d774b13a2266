"""The players' display board: what it shows (model.py, pure) and the GPIO that lights it (gpio.py)."""

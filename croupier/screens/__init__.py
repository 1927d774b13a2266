"""What the table screen (`ui`) and the players' monitor (`billboard`) both show, in one place: the
phase and chip colour names, a number in its colour, numbers in block characters. No Textual."""

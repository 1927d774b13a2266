"""The pure rules core: no I/O, no hardware, no UI. Standard library only."""

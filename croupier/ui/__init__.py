"""The table screen: the Textual app the croupier works all shift, keypad first, no mouse.

The app only sends commands to the table session (croupier.session) and shows its state and its
refusals: every decision comes from croupier.table and croupier.rules.
"""

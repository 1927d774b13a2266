"""The table screen: the Textual app the croupier works all shift, keypad first, no mouse.

The app only sends commands to the table session (croupier.session), each a typed method, and shows
its state and its refusals, each kind worded in the table's language (`text.refusal`): every
decision comes from croupier.table and croupier.rules. Flows and screens know their app is the
table's (`TableApp`).
"""

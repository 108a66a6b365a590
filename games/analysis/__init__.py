"""Perfect-information analysis of Hanabi deals: the algorithms of Baffier et al., "Hanabi is
NP-complete, Even for Cheaters who Look at Their Cards", on the paper's SOLITAIRE HANABI
model (`solitaire.py`), and the best score of a team that sees every card in a real game.

Pure Python: no Django import, as for `games/engine/`.
"""

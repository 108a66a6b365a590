"""The pages of the game site, one module per part: lobby.py (the home page, creating and
gathering a game), table.py (the turn page, its poll and the moves), replay.py (finished and
imported games, export and import), chat.py (the table's chat). Views are thin: they check
access (access.py), call one service, and render the engine's view for the person looking.
For an HTMX request they render a named partial of the same template."""

"""A toy trick-taking game defined entirely under ``tests/``: it proves that a game plugs into Tavolo by its
``GameSpec`` alone (no file outside this package knows about it)."""

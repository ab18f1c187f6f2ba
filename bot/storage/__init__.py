"""Storage: the database (SQLite or PostgreSQL behind one interface, :mod:`.db`), what both backends share
(:mod:`.base`), the PostgreSQL backend and its SQL dialect layer, and ``tavolo db`` (:mod:`.dbtool`). The numbered
migrations stay in ``bot/migrations/``."""

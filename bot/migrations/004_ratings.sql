-- 004: OpenSkill ratings, per guild and game. A cache derived from the ledger: `rating_applied` records
-- which settlements have been folded in (so applying is idempotent), and deleting both tables and replaying
-- the settlements in id order rebuilds exactly the same numbers (Ratings.rebuild).

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,               -- 0 = the computer players (one pooled rating per game)
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,               -- mu - 3 sigma: what leaderboards sort by
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
-- leaderboard by rating: one range scan, already in order.
CREATE INDEX ratings_board ON ratings (guild_id, game, ordinal DESC);

CREATE TABLE rating_applied (
    settlement_id INTEGER PRIMARY KEY REFERENCES settlements (id),
    guild_id      INTEGER NOT NULL,
    outcome       TEXT    NOT NULL              -- 'rated' or why it was skipped (audit/debugging)
);

-- 007: maintained totals, so balances and leaderboards cost O(players) however long the ledger grows.
-- One row per guild, season, currency, game and human player: the sums of their entries (`total`), of
-- `played` (`games`) and of `won` (`wins`). Adjustments belong to no game: their row has game ''.
-- Written only by bot/ledger/service.py, in the same transaction as the entries it sums (an upsert that adds),
-- so it is exactly the GROUP BY of `entries` at every commit; tests check that after every operation.
-- Computer players (is_bot = 1) are left out: no balance or leaderboard shows them.
CREATE TABLE ledger_totals (
    guild_id   INTEGER NOT NULL,
    season_id  INTEGER NOT NULL REFERENCES seasons (id),
    currency   TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    total      INTEGER NOT NULL DEFAULT 0,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, season_id, currency, game, user_id)
);
-- a player's balance (all games of a season) and profile totals (one game, all seasons)
CREATE INDEX ledger_totals_user ON ledger_totals (guild_id, user_id, currency, game);

INSERT INTO ledger_totals (guild_id, season_id, currency, game, user_id, total, games, wins)
SELECT guild_id, season_id, currency, COALESCE(game, ''), user_id, SUM(amount), SUM(played), SUM(won)
FROM entries WHERE is_bot = 0
GROUP BY guild_id, season_id, currency, COALESCE(game, ''), user_id;

-- The two wide covering indexes served the aggregates that ledger_totals now answers; each cost a b-tree insert
-- per entry. History, names and settlements keep their indexes.
DROP INDEX entries_balance;
DROP INDEX entries_leaderboard;

-- 001: the ledger. Append-only: rows are only ever inserted (triggers below refuse the rest);
-- balances, histories and leaderboards are queries over `entries`.
-- Timestamps are ISO-8601 UTC text. Discord ids are INTEGER (snowflakes fit in 64 bits).

-- A guild's seasons. The current season is the one with closed_at IS NULL (at most one, see index).
CREATE TABLE seasons (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    number      INTEGER NOT NULL CHECK (number >= 1),
    started_at  TEXT    NOT NULL,
    closed_at   TEXT,
    closed_by   INTEGER,
    UNIQUE (guild_id, number)
);
CREATE UNIQUE INDEX seasons_one_open ON seasons (guild_id) WHERE closed_at IS NULL;

-- One finished accounting unit (a hand, a game, a tournament prize). `key` makes booking idempotent.
-- table_id has INTEGER affinity: integer ids are stored as integers, other text ids stay text.
CREATE TABLE settlements (
    id            INTEGER PRIMARY KEY,
    key           TEXT    NOT NULL UNIQUE,
    guild_id      INTEGER NOT NULL,
    season_id     INTEGER NOT NULL REFERENCES seasons (id),
    game          TEXT    NOT NULL,
    table_id      INTEGER,
    hand_index    INTEGER,
    created_at    TEXT    NOT NULL,
    summary_json  TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(summary_json))
);

-- One amount for one player in one currency. Settlement entries exist for every seat and currency of
-- the unit (zeros included, so games-played counts work and each unit stays zero-sum in stake/resto);
-- computer players are user_id 0 / is_bot 1 with their name. Adjustments have no settlement.
-- `played`/`won` are decided when booking (see bot/ledger/service.py): `played` is 1 on a player's
-- first seat of a settlement (0 on any further seat of the same user, and on adjustments), `won` only
-- where played = 1. Leaderboards are then plain sums: no JSON parsing, no COUNT(DISTINCT).
-- guild_id/season_id/game are copied from the settlement on purpose: every query filters on them and
-- they make the covering indexes below possible.
CREATE TABLE entries (
    id             INTEGER PRIMARY KEY,
    settlement_id  INTEGER REFERENCES settlements (id),
    guild_id       INTEGER NOT NULL,
    season_id      INTEGER NOT NULL REFERENCES seasons (id),
    user_id        INTEGER NOT NULL,
    is_bot         INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    player_name    TEXT,
    seat           INTEGER,
    game           TEXT,
    currency       TEXT    NOT NULL CHECK (currency IN ('stake', 'resto', 'point')),
    amount         INTEGER NOT NULL,
    played         INTEGER NOT NULL DEFAULT 0 CHECK (played IN (0, 1)),
    won            INTEGER NOT NULL DEFAULT 0 CHECK (won IN (0, 1)),
    kind           TEXT    NOT NULL CHECK (kind IN ('hand', 'game', 'adjustment', 'tournament')),
    actor_id       INTEGER,
    reason         TEXT,
    created_at     TEXT    NOT NULL,
    CHECK ((kind = 'adjustment') = (settlement_id IS NULL)),
    CHECK (kind <> 'adjustment' OR (actor_id IS NOT NULL AND length(trim(reason)) > 0)),
    CHECK (is_bot = 0 OR user_id = 0),
    CHECK (won <= played AND (played = 0 OR settlement_id IS NOT NULL))
);

-- balance (guild, season, currency, human, user) and the all-games leaderboard (guild, season, currency,
-- humans, grouped by user): covering for both, so neither reads the table, and a leaderboard scans only
-- its own currency's human rows, already in user order.
CREATE INDEX entries_balance
    ON entries (guild_id, season_id, currency, is_bot, user_id, amount, played, won);
-- history(guild, user) newest first, paginated by id.
CREATE INDEX entries_history ON entries (guild_id, user_id, id DESC);
-- per-game leaderboard(guild, season, game, currency): covering for the aggregate (no table lookups).
CREATE INDEX entries_leaderboard
    ON entries (guild_id, season_id, game, currency, is_bot, user_id, amount, played, won);
-- entries of one settlement (hand details, audits).
CREATE INDEX entries_settlement ON entries (settlement_id);
CREATE INDEX settlements_table ON settlements (guild_id, table_id, hand_index);

-- Append-only enforcement. A season may only be closed (closed_at/closed_by set once).
CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
BEGIN
    SELECT RAISE(ABORT, 'ledger entries are append-only');
END;
CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
BEGIN
    SELECT RAISE(ABORT, 'ledger entries are append-only');
END;
CREATE TRIGGER settlements_no_update BEFORE UPDATE ON settlements
BEGIN
    SELECT RAISE(ABORT, 'settlements are append-only');
END;
CREATE TRIGGER settlements_no_delete BEFORE DELETE ON settlements
BEGIN
    SELECT RAISE(ABORT, 'settlements are append-only');
END;
CREATE TRIGGER seasons_close_only BEFORE UPDATE ON seasons
WHEN OLD.closed_at IS NOT NULL OR NEW.closed_at IS NULL
  OR NEW.id IS NOT OLD.id OR NEW.guild_id IS NOT OLD.guild_id
  OR NEW.number IS NOT OLD.number OR NEW.started_at IS NOT OLD.started_at
BEGIN
    SELECT RAISE(ABORT, 'a season can only be closed, once');
END;
CREATE TRIGGER seasons_no_delete BEFORE DELETE ON seasons
BEGIN
    SELECT RAISE(ABORT, 'seasons are append-only');
END;

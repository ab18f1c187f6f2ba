-- 010: settling up. Payments between players (proposed by one side, confirmed by the other, or recorded by an admin)
-- and what one unit of each ledger currency is worth in money, per server.

-- A payment proposal, then its outcome. Only bot/ledger/payments.py writes it. `season_id` is the season whose
-- balances the payment settles (the open one when proposed); `expires_at` is the stored deadline of a pending
-- proposal (ISO-8601 UTC text, compared as text like every timestamp here). An admin's direct record is a row
-- born `confirmed`, with its reason. A confirmed row has exactly one pair of `payment` entries (see below).
CREATE TABLE payments (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    season_id    INTEGER NOT NULL REFERENCES seasons (id),
    currency     TEXT    NOT NULL CHECK (currency IN ('stake', 'resto', 'point')),
    payer_id     INTEGER NOT NULL,
    payee_id     INTEGER NOT NULL,
    amount       INTEGER NOT NULL CHECK (amount > 0),
    proposer_id  INTEGER NOT NULL,
    reason       TEXT,
    created_at   TEXT    NOT NULL,
    expires_at   TEXT    NOT NULL,
    state        TEXT    NOT NULL DEFAULT 'pending'
                 CHECK (state IN ('pending', 'confirmed', 'declined', 'expired')),
    decided_by   INTEGER,
    decided_at   TEXT,
    CHECK (payer_id <> payee_id),
    CHECK ((state = 'pending') = (decided_at IS NULL))
);
-- pending proposals of a server (expiry sweeps, the list a player sees)
CREATE INDEX payments_pending ON payments (guild_id, state, expires_at);

-- Ledger entries get the kind `payment`: like an adjustment it belongs to no settlement, and it names its payment
-- (`payment_id`). One payment is two entries (payer +amount, payee -amount); the unique index is the idempotency key:
-- a second booking of the same payment (double click, two processes, a retry after a restart) inserts nothing.
-- SQLite cannot change a CHECK constraint in place: the table is rebuilt (same columns plus payment_id, same ids),
-- with its indexes and append-only triggers.
CREATE TABLE entries_new (
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
    kind           TEXT    NOT NULL CHECK (kind IN ('hand', 'game', 'adjustment', 'tournament', 'payment')),
    actor_id       INTEGER,
    reason         TEXT,
    created_at     TEXT    NOT NULL,
    payment_id     INTEGER REFERENCES payments (id),
    CHECK ((kind IN ('adjustment', 'payment')) = (settlement_id IS NULL)),
    CHECK (kind <> 'adjustment' OR (actor_id IS NOT NULL AND length(trim(reason)) > 0)),
    CHECK ((kind = 'payment') = (payment_id IS NOT NULL)),
    CHECK (kind <> 'payment' OR actor_id IS NOT NULL),
    CHECK (is_bot = 0 OR user_id = 0),
    CHECK (won <= played AND (played = 0 OR settlement_id IS NOT NULL))
);
INSERT INTO entries_new (id, settlement_id, guild_id, season_id, user_id, is_bot, player_name, seat, game, currency,
                         amount, played, won, kind, actor_id, reason, created_at)
SELECT id, settlement_id, guild_id, season_id, user_id, is_bot, player_name, seat, game, currency,
       amount, played, won, kind, actor_id, reason, created_at
FROM entries;
DROP TRIGGER entries_no_update;
DROP TRIGGER entries_no_delete;
DROP TABLE entries;
ALTER TABLE entries_new RENAME TO entries;
CREATE INDEX entries_history ON entries (guild_id, user_id, id DESC);
CREATE INDEX entries_settlement ON entries (settlement_id);
CREATE UNIQUE INDEX entries_payment ON entries (payment_id, user_id) WHERE payment_id IS NOT NULL;
CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
BEGIN
    SELECT RAISE(ABORT, 'ledger entries are append-only');
END;
CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
BEGIN
    SELECT RAISE(ABORT, 'ledger entries are append-only');
END;

-- What one unit is worth, per server: an ISO 4217 code and decimal values as exact text ('1.5', '0.25'); NULL: not
-- set (units only). Written by bot/ledger/money.py (/tavolo config).
CREATE TABLE guild_money (
    guild_id     INTEGER PRIMARY KEY,
    currency     TEXT,
    stake_value  TEXT,
    resto_value  TEXT,
    point_value  TEXT,
    updated_by   INTEGER,
    updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

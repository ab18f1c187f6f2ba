-- 011: the running-balance aggregate behind `/ledger chart`. One row per guild, currency, human player, season,
-- game and UTC hour: the sum of their entries in that hour (`total`) and how many there were (`entries`).
-- Adjustments (and any entry without a game) have game ''. A chart reads O(hours played) rows through the
-- primary key, however many entries the ledger holds, and adds them up in order. Entries of 0 move no balance and
-- are left out (`entries` counts the ones that did): a trigger costs per row, and many games book zeros.
-- A trigger keeps it, in the same transaction as the entry, so it is the GROUP BY of `entries` at every commit
-- whatever code inserts the entry (bookings, adjustments, payments). Computer players are left out, as in
-- ledger_totals. A later migration that rebuilds `entries` must create the trigger again.
CREATE TABLE ledger_hours (
    guild_id   INTEGER NOT NULL,
    currency   TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    season_id  INTEGER NOT NULL REFERENCES seasons (id),
    game       TEXT    NOT NULL,
    hour       TEXT    NOT NULL,   -- 'YYYY-MM-DDTHH' (UTC), the first 13 characters of entries.created_at
    total      INTEGER NOT NULL DEFAULT 0,
    entries    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, currency, user_id, season_id, game, hour)
) WITHOUT ROWID;  -- the rows live in the key's order: a chart's range read touches no second b-tree

INSERT INTO ledger_hours (guild_id, currency, user_id, season_id, game, hour, total, entries)
SELECT guild_id, currency, user_id, season_id, COALESCE(game, ''), substr(created_at, 1, 13), SUM(amount), COUNT(*)
FROM entries WHERE is_bot = 0 AND amount <> 0
GROUP BY guild_id, currency, user_id, season_id, COALESCE(game, ''), substr(created_at, 1, 13);

CREATE TRIGGER entries_hours AFTER INSERT ON entries WHEN NEW.is_bot = 0 AND NEW.amount <> 0
BEGIN
    INSERT INTO ledger_hours (guild_id, currency, user_id, season_id, game, hour, total, entries)
    VALUES (NEW.guild_id, NEW.currency, NEW.user_id, NEW.season_id, COALESCE(NEW.game, ''),
            substr(NEW.created_at, 1, 13), NEW.amount, 1)
    ON CONFLICT (guild_id, currency, user_id, season_id, game, hour)
    DO UPDATE SET total = total + excluded.total, entries = entries + 1;
END;

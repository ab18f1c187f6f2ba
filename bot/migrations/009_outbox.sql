-- 009: the outbox. Every message a player is owed because of an action (a hand's summary, the game-over post, the
-- final table message and DMs, a reminder's removal, a tournament round's notices) is written here in the SAME
-- transaction as the action, and delivered after it commits; a restart delivers whatever is still pending.
-- key: idempotency key (one row per owed message, so a replay of the same action writes nothing twice).
-- kind + payload_json: what to send, as a re-render instruction (codes and params, never rendered text: the
-- text is written in the reader's language when it is sent). state: pending -> sent | dropped (a 4xx that can
-- never succeed; last_error says why). next_attempt_at: epoch seconds; retries back off by moving it.
CREATE TABLE IF NOT EXISTS outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    key             TEXT    NOT NULL UNIQUE,
    guild_id        INTEGER NOT NULL,
    table_id        INTEGER,
    tournament_id   INTEGER,
    kind            TEXT    NOT NULL,
    channel_id      INTEGER,
    user_id         INTEGER,
    payload_json    TEXT    NOT NULL DEFAULT '{}',
    state           TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'dropped')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL    NOT NULL,
    last_error      TEXT,
    message_id      INTEGER,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    done_at         TEXT
);
CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (next_attempt_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS outbox_table ON outbox (table_id) WHERE state = 'pending';

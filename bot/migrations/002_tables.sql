-- Tables are event-sourced: options + seed + seats + action log (+ message ids). Game state is never
-- stored; it is rebuilt by replaying the log at startup.
CREATE TABLE IF NOT EXISTS game_tables (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    host_id       INTEGER NOT NULL,
    options_json  TEXT    NOT NULL,
    seed          INTEGER NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    seats_json    TEXT    NOT NULL,
    turn_timeout  INTEGER NOT NULL,
    messages_json TEXT    NOT NULL DEFAULT '{}',
    state_json    TEXT    NOT NULL DEFAULT '{}', -- votes to stop, stop-after-this-hand flag
    tournament_id INTEGER,
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- At most one open table per channel (or thread).
CREATE UNIQUE INDEX IF NOT EXISTS game_tables_open_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'running');
CREATE INDEX IF NOT EXISTS game_tables_status ON game_tables (status);

CREATE TABLE IF NOT EXISTS table_actions (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    actor_id   INTEGER,            -- Discord user who clicked; NULL when a computer acted
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (table_id, seq)
);

-- Small key/value store for the bot itself (e.g. the hash of the last synced command tree, so
-- commands are only re-synced with Discord when they change).
CREATE TABLE IF NOT EXISTS bot_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- 003: group tournaments. A tournament is a sign-up list plus, per round, the tables drawn for it; the
-- games themselves are ordinary `game_tables` (tournament_id set) and their results are ledger entries, so
-- standings are queries over the ledger restricted to the tournament's tables (never a second score store).

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,           -- where sign-up, standings and the round threads live
    host_id         INTEGER NOT NULL,
    game            TEXT    NOT NULL,
    rounds          INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 50),
    hands_per_round INTEGER NOT NULL CHECK (hands_per_round >= 0),
    options_json    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options_json)),  -- per-table game options
    fill            TEXT    NOT NULL DEFAULT 'computer' CHECK (fill IN ('computer', 'bye')),
    turn_timeout    INTEGER,
    seed            INTEGER NOT NULL,           -- the draw of every round derives from it (reproducible)
    status          TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    current_round   INTEGER NOT NULL DEFAULT 0, -- 0 during sign-up
    messages_json   TEXT    NOT NULL DEFAULT '{}',  -- sign-up / standings message ids
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
-- One tournament being signed up for or running per channel: its buttons and standings own the channel.
CREATE UNIQUE INDEX tournaments_open_channel ON tournaments (channel_id) WHERE status IN ('signup', 'running');

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'withdrawn')),
    joined_seq    INTEGER NOT NULL,             -- sign-up order: the last tie-break
    PRIMARY KEY (tournament_id, user_id)
);

-- The draw: one row per table of a round (seats_json = user ids in seat order, null = computer) and one
-- row per bye. table_id/thread_id are filled in as the table is opened, so a restart resumes half-opened
-- rounds without opening a second thread or table.
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    seats_json    TEXT    NOT NULL CHECK (json_valid(seats_json)),
    thread_id     INTEGER,
    table_id      INTEGER REFERENCES game_tables (id),
    status        TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'finished', 'cancelled')),
    PRIMARY KEY (tournament_id, round, table_no)
);
CREATE UNIQUE INDEX tournament_tables_table ON tournament_tables (table_id) WHERE table_id IS NOT NULL;

CREATE TABLE tournament_byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round, user_id)
);

-- Flags shown next to a player's standing: 'afk' (the computer played for them) or 'withdrawn'.
CREATE TABLE tournament_flags (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    flag          TEXT    NOT NULL CHECK (flag IN ('afk', 'withdrawn')),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (tournament_id, user_id, round, flag)
);

-- Per-guild roles: who may organise tournaments and who may administer the ledger (besides Manage Server).
CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    organiser_role_id INTEGER,
    admin_role_id     INTEGER,
    updated_by        INTEGER,
    updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

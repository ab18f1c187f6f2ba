-- Per-user preferences, read wherever the bot talks to that user (their DMs and private messages). NULL means
-- "not chosen": the server's setting (or the default) applies. ``locale`` is for a later language feature.
CREATE TABLE user_settings (
    user_id    INTEGER PRIMARY KEY,
    images     INTEGER NULL CHECK (images IN (0, 1)),
    locale     TEXT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Server-wide: card pictures in table messages and hands (NULL: on, the default; 0: text-only messages).
ALTER TABLE guild_settings ADD COLUMN images INTEGER NULL CHECK (images IN (0, 1));

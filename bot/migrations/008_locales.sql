-- The language of a user's own messages and of a server's channel messages. ``user_settings.locale`` (006) is a
-- player's explicit ``/tavolo language`` choice (NULL: follow their Discord client); ``client_locale`` the client
-- language last seen in one of their interactions, for messages sent without one (DMs after another player's move).
-- ``guild_settings.locale`` is the managers' ``/tavolo config language:`` (NULL: follow the server);
-- ``preferred_locale`` the server's Discord language last seen. Plain ADD COLUMNs: the same text on PostgreSQL.
ALTER TABLE user_settings ADD COLUMN client_locale TEXT NULL;
ALTER TABLE guild_settings ADD COLUMN locale TEXT NULL;
ALTER TABLE guild_settings ADD COLUMN preferred_locale TEXT NULL;

-- 011 for PostgreSQL: the same aggregate as ../011_ledger_hours.sql; the trigger calls a function.
CREATE TABLE ledger_hours (
    guild_id   BIGINT NOT NULL,
    currency   TEXT   NOT NULL,
    user_id    BIGINT NOT NULL,
    season_id  BIGINT NOT NULL REFERENCES seasons (id),
    game       TEXT   NOT NULL,
    hour       TEXT   NOT NULL,
    total      BIGINT NOT NULL DEFAULT 0,
    entries    BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, currency, user_id, season_id, game, hour)
);

INSERT INTO ledger_hours (guild_id, currency, user_id, season_id, game, hour, total, entries)
SELECT guild_id, currency, user_id, season_id, COALESCE(game, ''), substr(created_at, 1, 13), SUM(amount), COUNT(*)
FROM entries WHERE is_bot = 0 AND amount <> 0
GROUP BY guild_id, currency, user_id, season_id, COALESCE(game, ''), substr(created_at, 1, 13);

-- FOR EACH STATEMENT with a transition table: one upsert per booked settlement, not one per entry row.
CREATE FUNCTION tavolo_ledger_hours() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger_hours AS h (guild_id, currency, user_id, season_id, game, hour, total, entries)
    SELECT guild_id, currency, user_id, season_id, COALESCE(game, ''), substr(created_at, 1, 13), SUM(amount), COUNT(*)
    FROM new_entries WHERE is_bot = 0 AND amount <> 0
    GROUP BY guild_id, currency, user_id, season_id, COALESCE(game, ''), substr(created_at, 1, 13)
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (guild_id, currency, user_id, season_id, game, hour)
    DO UPDATE SET total = h.total + excluded.total, entries = h.entries + excluded.entries;
    RETURN NULL;
END
$$;
CREATE TRIGGER entries_hours AFTER INSERT ON entries REFERENCING NEW TABLE AS new_entries
    FOR EACH STATEMENT EXECUTE FUNCTION tavolo_ledger_hours();

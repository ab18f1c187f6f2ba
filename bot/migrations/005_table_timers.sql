-- 005: turn timers as data. A running table's turn deadline is a wall-clock time (Unix epoch seconds) stored
-- with the table, so a restart keeps the time a turn had left instead of starting every timer anew.
-- NULL = no human is waiting on a timer. `reminded` = the humans to move were already reminded of this
-- deadline (the reminder is sent once per turn, also across a restart).
-- Columns rather than state_json: the deadline changes on every human turn and is written on its own (one small
-- UPDATE), and it stays readable and indexable by SQL like any other timer row.
ALTER TABLE game_tables ADD COLUMN deadline REAL;
ALTER TABLE game_tables ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1));

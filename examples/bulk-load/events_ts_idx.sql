-- The order events are loaded in: by time, NULL times last (ASC's default).
CREATE INDEX events_ts_idx ON events USING btree (ts);

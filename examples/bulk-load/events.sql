-- The table of examples/bulk-load/events.awk's export, for load.sh.
CREATE TABLE events (id bigint NOT NULL, ts timestamptz, user_id bigint, action text, detail text);

# Writes a CSV export of events for load.sh: a header, then `rows` rows
# (default 100000) in id order, their timestamps in no order. Seeded by `seed`
# (default 1), so the same arguments give the same file.
#   awk -v rows=300000 -f examples/bulk-load/events.awk > events.csv
# What an export holds: few distinct seconds, so many rows share a time, and the
# same instant written with different UTC offsets; ISO 8601 with `T` or a space,
# offsets as Z, +HH:MM, +HHMM, +HH or none (UTC), 0 to 6 fractional digits,
# dates alone; about 1% of times NULL (an unquoted empty field); details quoted
# where they hold commas, quotes or newlines, some empty ("") and some NULL.
BEGIN {
  if (rows == "") rows = 100000
  if (seed == "") seed = 1
  srand(seed)
  split("0 60 120 -300 -420 330 345 540 -570 -60", offsets, " ")
  split("login logout view purchase refund", actions, " ")
  start = 1767225600  # 2026-01-01T00:00:00Z
  span = 3 * 86400
  print "id,ts,user_id,action,detail"
  for (id = 1; id <= rows; id++)
    printf "%d,%s,%s,%s,%s\n", id, timestamp(), user(), actions[pick(5)], detail(id)
}

function pick(n) { return int(rand() * n) + 1 }

function timestamp(  r, t, off, frac, digits, sep, s) {
  r = rand()
  if (r < 0.01) return ""
  t = start + int(rand() * span)
  if (r < 0.02) return civil_date(int((t - start) / 86400) + int(start / 86400))
  frac = ""
  if (rand() < 0.3) {
    digits = pick(6)
    frac = sprintf(".%0" digits "d", int(rand() * 10 ^ digits))
  }
  sep = rand() < 0.5 ? "T" : " "
  if (r < 0.1) return date_time(t, sep) frac                     # no offset: UTC
  off = offsets[pick(10)]
  s = date_time(t + off * 60, sep) frac
  if (off == 0 && rand() < 0.5) return s "Z"
  return s offset(off)
}

function offset(minutes,  sign, h, m, r) {
  sign = minutes < 0 ? "-" : "+"
  if (minutes < 0) minutes = -minutes
  h = int(minutes / 60); m = minutes % 60
  r = rand()
  if (m == 0 && r < 0.2) return sprintf("%s%02d", sign, h)
  if (r < 0.5) return sprintf("%s%02d%02d", sign, h, m)
  return sprintf("%s%02d:%02d", sign, h, m)
}

function date_time(t, sep,  days, secs) {
  days = int(t / 86400); secs = t - days * 86400
  return sprintf("%s%s%02d:%02d:%02d", civil_date(days), sep,
                 int(secs / 3600), int(secs % 3600 / 60), secs % 60)
}

# Days since 1970-01-01 to YYYY-MM-DD (Howard Hinnant's civil_from_days).
function civil_date(z,  era, doe, yoe, doy, mp, d, m, y) {
  z += 719468
  era = int(z / 146097)
  doe = z - era * 146097
  yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
  doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
  mp = int((5 * doy + 2) / 153)
  d = doy - int((153 * mp + 2) / 5) + 1
  m = mp < 10 ? mp + 3 : mp - 9
  y = yoe + era * 400 + (m <= 2)
  return sprintf("%04d-%02d-%02d", y, m, d)
}

function user() { return rand() < 0.05 ? "" : pick(5000) }

function detail(id,  r) {
  r = rand()
  if (r < 0.05) return ""                                        # NULL
  if (r < 0.10) return "\"\""                                    # empty text
  if (r < 0.30) return sprintf("\"cart: %d items, total %d.%02d\"", pick(9), pick(500), pick(100) - 1)
  if (r < 0.40) return sprintf("\"said \"\"hello\"\", left\"")
  if (r < 0.45) return sprintf("\"first line\nsecond line, %d\"", id)
  if (r < 0.50) return "\"café, crème\""
  return "page/" pick(200)
}

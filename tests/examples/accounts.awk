# Writes a CSV export of accounts for the bulk-load tests: a header, then
# `rows` rows (default 100000) in id order, seeded by `seed` (default 1).
#   awk -v rows=100000 -v seed=32 -f tests/examples/accounts.awk > accounts.csv
# Columns id,name,amount,ts,note, chosen for the orders they test:
# - name: a few hundred distinct texts, so the keys after it decide among many
#   rows, that an ICU collation orders unlike bytes (case, accents, ß, Æ, Ł,
#   apostrophes, hyphens, spaces, digits, a comma, a quote, a newline);
#   NULL (an unquoted empty field) and empty (""). With decomposed=1 (the
#   default) some accents are written decomposed (e and U+0301), which ICU
#   holds equal to the precomposed é: PostgreSQL orders such texts by their
#   bytes, DuckDB not at all, so the DuckDB test leaves them out.
# - amount: numeric_in's spellings of NaN and +-Infinity (which DuckDB's DOUBLE
#   reads too), -0, equal values written differently, numbers beyond a
#   double's precision, NULL.
# - ts: a few hundred instants, each written with different UTC offsets
#   (ties), dates alone, infinity, -infinity, NULL.
# - note: commas, quotes, newlines, tabs and backslashes (escaped in COPY's
#   text format), empty, NULL.
BEGIN {
  if (rows == "") rows = 100000
  if (seed == "") seed = 1
  if (decomposed == "") decomposed = 1
  srand(seed)
  first = "anne|Anne|ANNE|Änne|änne|Ånne|ane|André|andre|ANDRÉ|O'Brien|o'brien|OBrien|van-Dijk|vanDijk|" \
          "van Dijk|Ærø|aero|Zoë|zoe|Straße|strasse|STRASSE|Łódź|lodz|côte|cote|Côté|coté|1st|10th|2nd|" \
          "_x|-x|.x|ñandú|nandu|Œuvre|oeuvre|Ångström|angstrom|Müller|Mueller|muller"
  if (decomposed) first = first "|Andre\314\201|co\314\202te|Zoe\314\210"  # André, côte, Zoë
  nfirst = split(first, firsts, "|")
  nsecond = split("| a| b| B| é| É| e| z| -| 1| 10| 2| jr.|, jr| \"the\"|\n2nd", seconds, "|")
  start = 1767225600  # 2026-01-01T00:00:00Z
  print "id,name,amount,ts,note"
  for (id = 1; id <= rows; id++)
    printf "%d,%s,%s,%s,%s\n", id, name(), amount(), timestamp(), note()
}

function pick(n) { return int(rand() * n) + 1 }
function one_of(list,  a, n) { n = split(list, a, "|"); return a[pick(n)] }

# A field quoted where CSV needs it (and sometimes where it does not).
function csv(s) {
  if (s ~ /[",\n\t\\]/ || rand() < 0.05) {
    gsub(/"/, "\"\"", s)
    return "\"" s "\""
  }
  return s
}

function name(  r) {
  r = rand()
  if (r < 0.03) return ""
  if (r < 0.04) return "\"\""
  return csv(firsts[pick(nfirst)] seconds[pick(nsecond)])
}

function amount(  r, v) {
  r = rand()
  if (r < 0.05) return ""
  if (r < 0.08) return one_of("NaN|nan|NAN")
  if (r < 0.10) return one_of("Infinity|inf|+Infinity")
  if (r < 0.12) return one_of("-Infinity|-inf")
  if (r < 0.13) return one_of("0|-0|0.00|123456789012345678901234567890.5|123456789012345678901234567890.4")
  v = pick(41) - 21
  if (rand() < 0.3) return v one_of(".5|.50|.25")
  return v
}

function timestamp(  r, t, off, s) {
  r = rand()
  if (r < 0.05) return ""
  if (r < 0.08) return one_of("infinity|Infinity")
  if (r < 0.11) return "-infinity"
  t = start + 3600 * pick(300)
  if (r < 0.13) return civil(t - t % 86400, "")
  off = one_of("0|0|60|-300|330|-570")
  s = civil(t + off * 60, one_of(" |T"))
  if (rand() < 0.2) s = s ".5"
  if (off == 0) return s one_of("Z|+00|")
  return s sprintf("%s%02d:%02d", off < 0 ? "-" : "+", (off < 0 ? -off : off) / 60, (off < 0 ? -off : off) % 60)
}

# Seconds since the epoch as YYYY-MM-DD, and hh:mm:ss after sep where sep is
# not "" (Howard Hinnant's days-to-civil).
function civil(t, sep,  days, secs, z, era, doe, yoe, y, doy, mp, d, m) {
  days = int(t / 86400); secs = t % 86400
  z = days + 719468
  era = int(z / 146097)
  doe = z - era * 146097
  yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
  y = yoe + era * 400
  doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
  mp = int((5 * doy + 2) / 153)
  d = doy - int((153 * mp + 2) / 5) + 1
  m = mp < 10 ? mp + 3 : mp - 9
  if (m <= 2) y++
  if (sep == "") return sprintf("%04d-%02d-%02d", y, m, d)
  return sprintf("%04d-%02d-%02d%s%02d:%02d:%02d", y, m, d, sep, int(secs / 3600), int(secs % 3600 / 60), secs % 60)
}

function note(  r, s, n) {
  r = rand()
  if (r < 0.05) return ""
  if (r < 0.07) return "\"\""
  s = ""
  for (n = pick(4); n > 0; n--) s = s one_of("x|y|,|\"|\n|\t|\\|N|a b")
  return csv(s)
}

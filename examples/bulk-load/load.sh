#!/usr/bin/env bash
# Bulk-loads an export into a new PostgreSQL table in the order of one of its
# B-tree indexes, so that the index is built over a heap already in its order
# (a range scan reads neighbouring pages; pg_stats.correlation of an ascending
# first key column is 1).
#   examples/bulk-load/load.sh [--format csv|pgtext] [--no-header] [--dry-run]
#                              TABLE.sql INDEX.sql DATA...
# TABLE.sql creates the table (`CREATE TABLE t (...)`, or `CREATE TABLE t (LIKE
# existing INCLUDING DEFAULTS)`; SET commands and the like may come with it, as
# in pg_dump's output, but no BEGIN or COMMIT). INDEX.sql creates one B-tree
# index on it (`CREATE INDEX ... (name COLLATE "und-x-icu", amount DESC NULLS
# FIRST, ts)`, or `ALTER TABLE ... ADD PRIMARY KEY`); its key columns are the
# order. DATA are CSV files (--format csv, the default) or files of COPY's text
# format (--format pgtext), in UTF-8, with a header row unless --no-header,
# their columns the table's in the table's order (what COPY reads without a
# column list). Several DATA files are sorted together as one table.
#
# PostgreSQL says what the order is: TABLE.sql and INDEX.sql run in a
# transaction that is rolled back, and the catalogs give each key column of the
# new index its type, direction, NULL placement and collation, which become
# corank's keys. A key corank cannot order as PostgreSQL does (an expression, a
# type or operator class it does not know, a libc collation other than C, an
# ICU collation with custom rules) is refused before anything is sorted (exit
# 2). Then one transaction runs TABLE.sql, COPYs the sorted rows in (FREEZE: a
# table new in the transaction gets them in one pass, in file order, frozen),
# runs INDEX.sql and ANALYZE: a failure leaves no table behind.
#
# psql connects as it always does (PGHOST, PGPORT, PGUSER, PGDATABASE, ...).
# The session's TimeZone is UTC, as corank reads timestamps without an offset,
# and its client encoding UTF-8, as corank reads text. CORANK names the corank
# binary (default: the one on PATH), CORANK_OPTIONS adds options to its
# command (memory, temporary directories: `-S 8G -T /scratch`); the sorted copy
# is written under TMPDIR first. --dry-run prints corank's command and the
# COPY, and loads nothing.
set -euo pipefail
me=load.sh
usage="usage: $me [--format csv|pgtext] [--no-header] [--dry-run] TABLE.sql INDEX.sql DATA..."
fail() { echo "$me: $*" >&2; exit 2; }

format=csv header=1 dry_run=0
while [ $# -gt 0 ]; do
  case $1 in
    --format) [ $# -ge 2 ] || fail "$usage"; format=$2; shift 2 ;;
    --format=*) format=${1#--format=}; shift ;;
    --no-header) header=0; shift ;;
    --dry-run) dry_run=1; shift ;;
    --) shift; break ;;
    -*) fail "unknown option '$1'; $usage" ;;
    *) break ;;
  esac
done
[ $# -ge 3 ] || fail "$usage"
case $format in
  csv) copy_format=csv ;;
  pgtext) copy_format=text ;;
  *) fail "--format is csv or pgtext, not '$format'" ;;
esac
table_sql=$1 index_sql=$2
shift 2
data=("$@")
for f in "$table_sql" "$index_sql"; do
  [ -r "$f" ] || fail "$f: cannot read it"
done
corank=${CORANK:-corank}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PGTZ=UTC PGCLIENTENCODING=UTF8
sql() { psql --no-psqlrc -X -q -v ON_ERROR_STOP=1 "$@"; }

# The probe, one psql session fed TABLE.sql, INDEX.sql and the catalog queries
# on its standard input (a name interpolated into \i would stay quoted); its results go to
# files in $work, psql's working directory, since TABLE.sql may print rows of
# its own. The index is the one INDEX.sql adds to those TABLE.sql left (a
# primary key made by TABLE.sql is not it). Versions name the locale of an ICU
# or builtin collation differently (colliculocale in 15 and 16, colllocale
# since 17; collcollate before 15), so such rows are read as JSON, where a
# column a version lacks is simply absent. Fields are separated by the unit
# separator (\x1f), which no catalog value holds.
sep=$'\x1f'
{
  echo 'BEGIN;'
  cat "$table_sql"
  printf '\n;\n'
  cat <<'SQL'
SELECT coalesce(array_agg(indexrelid), '{}') AS indexes_before FROM pg_index \gset
SQL
  cat "$index_sql"
  printf '\n;\n'
  cat <<'SQL'
SELECT i.indexrelid, format('%I', ic.relname), format('%I.%I', n.nspname, t.relname), am.amname,
       i.indpred IS NOT NULL, pg_encoding_to_char(d.encoding), current_setting('server_version_num')
  FROM pg_index i
  JOIN pg_class ic ON ic.oid = i.indexrelid
  JOIN pg_am am ON am.oid = ic.relam
  JOIN pg_class t ON t.oid = i.indrelid
  JOIN pg_namespace n ON n.oid = t.relnamespace
  JOIN pg_database d ON d.datname = current_database()
 WHERE i.indexrelid <> ALL (:'indexes_before'::oid[])
\g index
-- One row per key column: its position among the columns COPY reads (all but
-- dropped and generated ones), its type, the type its operator class compares
-- (text for varchar, a domain's base type), whether that class is the type's
-- default order, direction, NULL placement and collation (the database's own
-- for "default").
SELECT k.n + 1, a.attname,
       (SELECT count(*) FROM pg_attribute f
         WHERE f.attrelid = i.indrelid AND f.attnum BETWEEN 1 AND a.attnum
           AND NOT f.attisdropped AND f.attgenerated = ''),
       a.attgenerated <> '',
       format_type(a.atttypid, a.atttypmod), format_type(oc.opcintype, NULL),
       oc.opcname, oc.opcdefault,
       i.indoption[k.n] & 1 <> 0,
       i.indoption[k.n] & 2 <> 0,
       co.collname,
       CASE co.collprovider WHEN 'd' THEN coalesce(db->>'datlocprovider', 'c')
                            ELSE co.collprovider::text END,
       CASE WHEN co.collprovider = 'c' THEN co.collcollate
            WHEN co.collprovider <> 'd' THEN coalesce(to_jsonb(co)->>'colllocale',
                                                      to_jsonb(co)->>'colliculocale', co.collcollate)
            WHEN coalesce(db->>'datlocprovider', 'c') = 'c' THEN db->>'datcollate'
            ELSE coalesce(db->>'datlocale', db->>'daticulocale') END,
       CASE co.collprovider WHEN 'd' THEN db->>'daticurules' ELSE to_jsonb(co)->>'collicurules' END,
       co.collisdeterministic
  FROM pg_index i
 CROSS JOIN generate_series(0, i.indnkeyatts - 1) k(n)
  LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[k.n]
  JOIN pg_opclass oc ON oc.oid = i.indclass[k.n]
  LEFT JOIN pg_collation co ON co.oid = i.indcollation[k.n]
 CROSS JOIN (SELECT to_jsonb(d) AS db FROM pg_database d WHERE d.datname = current_database()) d
 WHERE i.indexrelid <> ALL (:'indexes_before'::oid[])
 ORDER BY i.indexrelid, k.n
\g keys
ROLLBACK;
SQL
} | (cd "$work" && sql -At -F "$sep" >/dev/null) || fail "$table_sql or $index_sql failed (PostgreSQL's message above)"

[ -s "$work/index" ] || fail "$index_sql: creates no index"
[ "$(wc -l <"$work/index")" -eq 1 ] ||
  fail "$index_sql: creates $(wc -l <"$work/index") indexes (a partitioned table's?); load.sh takes one"
IFS=$sep read -r _ index table method partial encoding version <"$work/index"
where="$index_sql: index $index"
[ "$method" = btree ] || fail "$where uses $method: only a B-tree index has an order"
[ "$partial" = f ] || fail "$where is partial (WHERE): it orders only some of the rows"

# Each key column to a corank key: COLUMN:TYPE[:desc]:nulls_first|nulls_last
# [:collate=LOCALE]. The column is named by its position: it is the table's
# column order that COPY reads, whatever the header says.
keys=()
nkeys=$(wc -l <"$work/keys")
while IFS=$sep read -r k name field generated declared type opclass opcdefault desc nulls_first \
  collname provider locale rules deterministic; do
  [ -n "$name" ] || fail "$where: key $k is an expression; load.sh sorts by columns only"
  [ "$generated" = f ] || fail "$where: column $name is generated: its values are not in the file"
  what="$where: column $name ($declared)"
  [ "$opcdefault" = t ] || [ "$type" = text ] ||
    fail "$what: operator class $opclass orders unlike the type's default"
  collate=
  case $type in
    smallint | integer | bigint) ctype=n ;;
    numeric) ctype=decimal ;;
    real | "double precision") ctype=float ;;
    # date too, as an instant at midnight: corank's own date type puts
    # -infinity and infinity among unparsable values, ahead of every date.
    date | "timestamp without time zone" | "timestamp with time zone") ctype="time" ;;
    text | name)
      ctype=text
      [ "$encoding" = UTF8 ] || fail "$what: the database's encoding is $encoding; corank orders UTF-8 text"
      if [ "$opcdefault" = f ]; then
        # The pattern operator classes compare bytes whatever the collation.
        case $opclass in
          text_pattern_ops | varchar_pattern_ops) provider=c locale=C ;;
          *) fail "$what: operator class $opclass orders unlike the type's default" ;;
        esac
      fi
      case $provider:$locale in
        # Bytes. In UTF-8, the code point order of libc's and the builtin
        # provider's C.UTF-8 (and PG_UNICODE_FAST) is the byte order.
        c:C | c:POSIX | c:C.UTF-8 | c:C.utf8 | b:C | b:C.UTF-8 | b:PG_UNICODE_FAST) ;;
        i:*)
          [ -z "$rules" ] || fail "$what: collation \"$collname\" has custom ICU rules, which corank does not apply"
          # ICU's root collation; PostgreSQL has spelled it "", "root" and "und".
          case $locale in "" | root) locale=und ;; esac
          collate=:collate=$locale
          # Texts that a nondeterministic collation holds equal are ordered
          # by the next key in the index, where corank orders them by their
          # bytes; by the last key, in any order.
          [ "$deterministic" = t ] || [ "$k" -eq "$nkeys" ] ||
            fail "$what: collation \"$collname\" is nondeterministic: the index orders the texts it" \
              "holds equal by the next key, corank by their bytes"
          ;;
        c:*) fail "$what: collation \"$collname\" is the C library's locale $locale; corank orders text" \
          "by ICU collations or bytes: use an ICU collation (COLLATE \"und-x-icu\", \"en-x-icu\", ...) or \"C\"" ;;
        *) fail "$what: collation \"$collname\" (provider $provider, locale $locale) is not one corank has" ;;
      esac
      ;;
    character) fail "$what: character(n) compares without trailing spaces, which corank does not drop;" \
      "varchar or text orders as corank does" ;;
    *) fail "$what: corank has no order for this type" ;;
  esac
  key=$field:$ctype
  [ "$desc" = f ] || key+=:desc
  # PostgreSQL's default places (NULLS LAST for ASC, FIRST for DESC) are in
  # indoption already; corank is told the place either way.
  if [ "$nulls_first" = t ]; then key+=:nulls_first; else key+=:nulls_last; fi
  keys+=(--key "$key$collate")
done <"$work/keys"

header_option=() copy_header=
if ((header)); then
  header_option=(--header)
  # MATCH (PostgreSQL 15): COPY checks that the header names the table's
  # columns in order, the order that the keys' positions refer to.
  if ((version >= 150000)); then copy_header=", HEADER MATCH"; else copy_header=", HEADER true"; fi
fi
# shellcheck disable=SC2206 # CORANK_OPTIONS holds several words
sort_command=("$corank" --format "$format" "${header_option[@]}" ${CORANK_OPTIONS:-} "${keys[@]}")
copy="COPY $table FROM STDIN WITH (FORMAT $copy_format$copy_header, FREEZE true)"
echo "$me: $index on $table: corank ${keys[*]}" >&2
if ((dry_run)); then
  printf '%q ' "${sort_command[@]}" -o SORTED -- "${data[@]}"
  printf '\n%s\n' "$copy"
  exit 0
fi

"${sort_command[@]}" -o "$work/sorted" -- "${data[@]}"
sql --single-transaction -f "$table_sql" -c "$copy" -f "$index_sql" -c "ANALYZE $table" \
  <"$work/sorted" >/dev/null
echo "$me: $table loaded in the order of $index" >&2

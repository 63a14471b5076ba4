#!/usr/bin/env python3
"""A corpus of real-looking logs with the true instant of every line.

  tools/logcorpus.py OUT_DIR [--lines N] [--seed S] [--zone ZONE] [--second-zone ZONE2]
  tools/logcorpus.py --check OUT_DIR SORTED_OUTPUT [--multiline] [--files F...]

Writes into OUT_DIR one file per kind of log (below) and truth.tsv: for each
line's id (the "id=N" every line carries) the instant it was written, in
nanoseconds since the epoch, computed here with datetime and zoneinfo, so that
the reference order owes nothing to corank's parser. Every file's modification
time is set to its last line's instant, as a log's is.

Timestamps without a UTC offset are the wall clock of ZONE (default
Europe/Berlin): sort them with --time-zone ZONE. The corpus spans:
  nginx-*.log     Combined Log Format from three zones (their own offsets)
  syslog.log      RFC 3164, yearless, from Dec 30 to Jan 2 (the year's end)
  syslog-2025.log the same a year earlier: its modification time, not the
                  newest input's, dates its lines
  app-log4j.log   log4j in ZONE across a spring-forward change (a clock skips
                  the gap). The repeated hour of a fall-back change is left
                  out: its local times name two instants each, and no sorter
                  can tell them apart from the text.
  go-error.log    Go's log package / nginx's error log: 2026/03/29 11:15:01
  apache-error.log  [Sun Mar 29 11:15:01.123456 2026] [core:error] ...
  rfc5424.log     <165>1 2026-03-29T11:15:01.003+02:00 host app ...
  epoch.log       seconds with milliseconds, 1774775701.123
  app-java.log    logback in ZONE, ERROR entries followed by their stack
                  traces, after a line the JVM printed (sort with --multiline)
  postgresql.log  PostgreSQL's log prefix %m in ZONE across a fall-back change:
                  2026-10-25 02:30:00.123 CEST, then the same hour again in CET,
                  each instant named by its zone abbreviation
  script.log      date's own output in ZONE (Sun Oct 25 02:30:00 CET 2026)
                  over 21 months: its years, not a year inferred, date it
  app-log4j-second.log  only with --second-zone: app-log4j.log's hours of
                  log4j written in ZONE2, a second data centre's (sort with
                  --time-zone 'app-log4j-second.log=ZONE2' --time-zone ZONE)

--check reads a sorted output and prints how many records are out of true
time order, and whether the output holds exactly the inputs' lines (as a
multiset); with --multiline also whether every record (an entry with its
stack trace) is whole; it exits 1 on any failure.
"""
import argparse
import os
import random
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

UTC = timezone.utc
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
DAYS = "Mon Tue Wed Thu Fri Sat Sun".split()


def instants(rng, start, end, n):
    """n instants in [start, end), sorted, with microseconds."""
    span = int((end - start).total_seconds() * 1_000_000)
    return sorted(start + timedelta(microseconds=rng.randrange(span)) for _ in range(n))


def local_ms(t, zone):
    """t in zone, cut to whole milliseconds, and those milliseconds."""
    local = t.astimezone(zone)
    ms = local.microsecond // 1000
    return local.replace(microsecond=ms * 1000), ms


def offset_text(dt, colon):
    off = int(dt.utcoffset().total_seconds()) // 60
    sign = "+" if off >= 0 else "-"
    h, m = divmod(abs(off), 60)
    return f"{sign}{h:02d}{':' if colon else ''}{m:02d}"


def nginx(rng, zone_name, start, n, ident):
    zone = ZoneInfo(zone_name)
    for t in instants(rng, start, start + timedelta(hours=30), n):
        local = t.astimezone(zone).replace(microsecond=0)
        stamp = f"{local.day:02d}/{MONTHS[local.month - 1]}/{local.year}:{local:%H:%M:%S} {offset_text(local, False)}"
        line = (f'10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)} - - [{stamp}] '
                f'"GET /api/{rng.randrange(1000)}?id={next(ident)} HTTP/1.1" {rng.choice([200, 200, 304, 404, 502])} '
                f'{rng.randrange(99999)} "-" "curl/8.5"')
        yield local.astimezone(UTC), line


def syslog(rng, zone, n, ident, year=2026):
    start = datetime(year, 12, 30, tzinfo=zone)
    for t in instants(rng, start, start + timedelta(days=3), n):
        local = t.astimezone(zone).replace(microsecond=0)
        line = (f"{MONTHS[local.month - 1]} {local.day:2d} {local:%H:%M:%S} web{rng.randrange(4)} "
                f"sshd[{rng.randrange(99999)}]: Accepted publickey id={next(ident)}")
        yield local.astimezone(UTC), line


def log4j(rng, zone, n, ident):
    # Europe/Berlin moves from +01:00 to +02:00 at 01:00 UTC on 2026-03-29.
    start = datetime(2026, 3, 28, 22, 0, tzinfo=UTC)
    for t in instants(rng, start, start + timedelta(hours=6), n):
        local, ms = local_ms(t, zone)
        line = (f"{local:%Y-%m-%d %H:%M:%S},{ms:03d} {rng.choice(['INFO ', 'WARN ', 'ERROR'])} "
                f"[worker-{rng.randrange(8)}] c.e.OrderService - order placed id={next(ident)}")
        yield local.astimezone(UTC), line


def go_error(rng, zone, n, ident):
    start = datetime(2026, 3, 29, 9, 0, tzinfo=zone)
    for t in instants(rng, start, start + timedelta(hours=8), n):
        local = t.astimezone(zone).replace(microsecond=0)
        line = f"{local:%Y/%m/%d %H:%M:%S} [error] 7#7: *{rng.randrange(9999)} upstream timed out id={next(ident)}"
        yield local.astimezone(UTC), line


def apache_error(rng, zone, n, ident):
    start = datetime(2026, 3, 29, 9, 0, tzinfo=zone)
    for t in instants(rng, start, start + timedelta(hours=8), n):
        local = t.astimezone(zone)
        line = (f"[{DAYS[local.weekday()]} {MONTHS[local.month - 1]} {local.day:02d} {local:%H:%M:%S}."
                f"{local.microsecond:06d} {local.year}] [core:error] [pid {rng.randrange(9999)}] "
                f"AH00124: Request exceeded the limit id={next(ident)}")
        yield local.astimezone(UTC), line


def rfc5424(rng, zone, n, ident):
    start = datetime(2026, 3, 29, 9, 0, tzinfo=zone)
    for t in instants(rng, start, start + timedelta(hours=8), n):
        local, ms = local_ms(t, zone)
        zulu = rng.random() < 0.5
        stamp = (f"{local.astimezone(UTC):%Y-%m-%dT%H:%M:%S}.{ms:03d}Z" if zulu
                 else f"{local:%Y-%m-%dT%H:%M:%S}.{ms:03d}{offset_text(local, True)}")
        line = f"<165>1 {stamp} host{rng.randrange(9)} app {rng.randrange(9999)} ID47 - message id={next(ident)}"
        yield local.astimezone(UTC), line


def java(rng, zone, n, ident):
    """logback in ZONE; an ERROR entry is followed by its stack trace, lines
    without a timestamp (None: no instant of their own), and the file starts
    with what the JVM printed before logging began."""
    yield None, "Picked up JAVA_TOOL_OPTIONS: -Xmx2g -XX:+UseG1GC"
    start = datetime(2026, 3, 29, 8, 0, tzinfo=zone)
    for t in instants(rng, start, start + timedelta(hours=8), n):
        local, ms = local_ms(t, zone)
        error = rng.random() < 0.3
        yield local.astimezone(UTC), (f"{local:%Y-%m-%d %H:%M:%S}.{ms:03d} [http-nio-{rng.randrange(8)}] "
                                      f"{'ERROR' if error else 'INFO '} c.e.PaymentService - charge id={next(ident)}")
        if error:
            yield None, f"java.lang.IllegalStateException: card declined (code {rng.randrange(100)})"
            for _ in range(rng.randrange(1, 6)):
                yield None, f"\tat com.example.PaymentService.charge(PaymentService.java:{rng.randrange(1, 900)})"
            if rng.random() < 0.5:
                yield None, "Caused by: java.net.SocketTimeoutException: Read timed out"
                yield None, f"\tat java.net.SocketInputStream.read(SocketInputStream.java:{rng.randrange(1, 300)})"
                yield None, f"\t... {rng.randrange(2, 40)} more"


def epoch(rng, zone, n, ident):
    start = datetime(2026, 3, 29, 9, 0, tzinfo=UTC)
    for t in instants(rng, start, start + timedelta(hours=8), n):
        ms = t.microsecond // 1000
        t = t.replace(microsecond=ms * 1000)
        line = f"{int(t.timestamp())}.{ms:03d} worker={rng.randrange(9)} job done id={next(ident)}"
        yield t, line


def postgresql(rng, zone, n, ident):
    # Europe/Berlin moves from +02:00 back to +01:00 at 01:00 UTC on 2026-10-25.
    start = datetime(2026, 10, 24, 23, 0, tzinfo=UTC)
    for t in instants(rng, start, start + timedelta(hours=4), n):
        local, ms = local_ms(t, zone)
        line = (f"{local:%Y-%m-%d %H:%M:%S}.{ms:03d} {local.tzname()} [{rng.randrange(9999)}] LOG:  "
                f"duration: {rng.randrange(1, 999)}.{rng.randrange(1000):03d} ms  statement: SELECT {rng.randrange(1000)} -- id={next(ident)}")
        yield local.astimezone(UTC), line


def script(rng, zone, n, ident):
    start = datetime(2024, 6, 1, tzinfo=UTC)
    for t in instants(rng, start, datetime(2026, 3, 1, tzinfo=UTC), n):
        local = t.astimezone(zone).replace(microsecond=0)
        line = (f"{DAYS[local.weekday()]} {MONTHS[local.month - 1]} {local.day:2d} {local:%H:%M:%S} "
                f"{local.tzname()} {local.year} backup of db{rng.randrange(9)} done id={next(ident)}")
        yield local.astimezone(UTC), line


WRITERS = {
    "nginx-berlin.log": lambda rng, zone, n, ident: nginx(rng, "Europe/Berlin", datetime(2026, 11, 24, tzinfo=UTC), n, ident),
    "nginx-newyork.log": lambda rng, zone, n, ident: nginx(rng, "America/New_York", datetime(2026, 11, 24, 6, tzinfo=UTC), n, ident),
    "nginx-tokyo.log": lambda rng, zone, n, ident: nginx(rng, "Asia/Tokyo", datetime(2026, 11, 23, 20, tzinfo=UTC), n, ident),
    "syslog.log": syslog,
    "syslog-2025.log": lambda rng, zone, n, ident: syslog(rng, zone, n, ident, 2025),
    "app-log4j.log": log4j,
    "go-error.log": go_error,
    "apache-error.log": apache_error,
    "rfc5424.log": rfc5424,
    "epoch.log": epoch,
    "app-java.log": java,
    "postgresql.log": postgresql,
    "script.log": script,
}


def nanos(dt):
    delta = dt - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000


SECOND = "app-log4j-second.log"


def generate(out, lines, seed, zone_name, second_zone):
    os.makedirs(out, exist_ok=True)
    rng = random.Random(seed)
    zone = ZoneInfo(zone_name)
    counter = iter(range(1, 1 << 62))
    writers = dict(WRITERS)
    if second_zone:
        writers[SECOND] = lambda rng, zone, n, ident: log4j(rng, ZoneInfo(second_zone), n, ident)
    with open(os.path.join(out, "truth.tsv"), "w") as truth:
        for name, writer in writers.items():
            records = list(writer(rng, zone, lines, counter))
            path = os.path.join(out, name)
            with open(path, "w") as f:
                for _, line in records:
                    f.write(line + "\n")
            for t, line in records:
                if t is not None:
                    truth.write(f"{line.rsplit('id=', 1)[1].split()[0]}\t{nanos(t)}\n")
            last = max(t for t, _ in records if t is not None).timestamp()
            os.utime(path, (last, last))


def records_of(lines):
    """Lines grouped into records as the generator wrote them: a line without
    an id (a stack trace's, text before a file's first entry) belongs to the
    record before it; those before the first entry form a head record."""
    records = []
    for line in lines:
        if "id=" in line or not records:
            records.append([line])
        else:
            records[-1].append(line)
    return records


def check(out, sorted_path, files, multiline):
    truth = {}
    with open(os.path.join(out, "truth.tsv")) as f:
        for row in f:
            ident, t = row.split()
            truth[ident] = int(t)
    with open(sorted_path) as f:
        got = f.read().splitlines()
    want = []
    want_records = []
    for name in files:
        with open(os.path.join(out, name)) as f:
            lines = f.read().splitlines()
        want += lines
        want_records += [r for r in records_of(lines) if "id=" in r[0]]
    same_lines = sorted(got) == sorted(want)
    if multiline:
        # Every entry keeps its own lines, and only heads come before the first entry.
        got_records = records_of(got)
        if got_records and "id=" not in got_records[0][0]:
            got_records = got_records[1:]
        whole = sorted(got_records) == sorted(want_records)
        got = [r[0] for r in got_records]
    else:
        whole = True
    times = [truth[line.rsplit("id=", 1)[1].split()[0]] for line in got if "id=" in line]
    disorder = sum(1 for a, b in zip(times, times[1:]) if a > b)
    print(f"{len(got)} records, {disorder} out of true time order, "
          f"{'the same lines as the inputs' if same_lines else 'NOT the lines of the inputs'}"
          f"{'' if whole else ', records NOT whole'}")
    return 0 if same_lines and whole and disorder == 0 and len(times) == len(got) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("sorted", nargs="?")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--multiline", action="store_true",
                    help="with --check: records span lines (corank --multiline); else every line is one")
    ap.add_argument("--files", nargs="+", help="with --check: the input files sorted (default: all)")
    ap.add_argument("--lines", type=int, default=400, help="lines per file")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--zone", default="Europe/Berlin")
    ap.add_argument("--second-zone", help="also write " + SECOND + ": log4j in this zone")
    a = ap.parse_args()
    if a.check:
        if not a.sorted:
            ap.error("--check needs OUT_DIR and SORTED_OUTPUT")
        files = a.files or list(WRITERS) + ([SECOND] if os.path.exists(os.path.join(a.out, SECOND)) else [])
        return check(a.out, a.sorted, files, a.multiline)
    generate(a.out, a.lines, a.seed, a.zone, a.second_zone)
    return 0


if __name__ == "__main__":
    sys.exit(main())

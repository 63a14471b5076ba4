#!/usr/bin/env python3
"""The reference for corank's row checks, by Python's csv module: the rows of
the CSV/TSV files given, the first file's header (with --header) or first row
setting the number of fields every row must have. Writes the good rows, stably
sorted by the integer in their first field (after the header), to GOOD and
the others, unchanged and in input order, to BAD; prints the first bad row's
"FILE:LINE: N fields" (LINE the physical line where the row starts, from the
reader's line_num) and the counts. A row without a line ending gets that of
its file's first row, as corank gives it.
  rows_reference.py DELIMITER HEADER(0|1) GOOD BAD FILE...
"""
import csv
import io
import sys


def main():
    delim, header, good_path, bad_path, files = sys.argv[1], sys.argv[2] == "1", sys.argv[3], sys.argv[4], sys.argv[5:]
    width, head, first = None, None, ""
    good, bad = [], []
    for path in files:
        with open(path, newline="", encoding="latin-1") as f:
            data = f.read()
        lines = io.StringIO(data, newline="").readlines()
        ending = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
        reader = csv.reader(io.StringIO(data, newline=""), delimiter=delim)
        prev = 0
        for i, fields in enumerate(reader):
            raw = "".join(lines[prev:reader.line_num])
            start, prev = prev + 1, reader.line_num
            if not raw.endswith("\n"):
                raw += ending
            n = max(len(fields), 1)  # a blank line is one empty field
            if header and i == 0:
                if width is None:
                    width, head = n, raw
                continue
            if width is None:
                width = n
            if n != width:
                bad.append(raw)
                first = first or f"{path}:{start}: {n} field{'s' if n != 1 else ''}"
            else:
                good.append((int(fields[0]), raw))
    good.sort(key=lambda r: r[0])
    with open(good_path, "w", newline="", encoding="latin-1") as f:
        f.write((head or "") + "".join(r for _, r in good))
    with open(bad_path, "w", newline="", encoding="latin-1") as f:
        f.write("".join(bad))
    print(first)
    print(len(bad), len(good) + len(bad))


main()

#!/usr/bin/env python3
"""Random small inputs sorted by corank and by GNU sort with the same random
options, in several locales: any difference in output or exit status is
printed with the case that shows it.

    tools/gnu-differential.py CORANK [--seed N] [--cases N]

Inputs mix words, numbers with and without units, month names, versions,
empty fields and non-ASCII text, split by a space, comma, tab or colon.
Options are drawn from -n -r -f -b -d -i -g -h -M -V -u -s -z -c -C
--stable, with -t and up to two -k keys (field, character, end, letters).
The locales are those of C, C.UTF-8, en_US, de_DE and sv_SE that are
installed. Exits 1 where any case differs, else 0.
"""
import argparse
import os
import random
import subprocess
import sys

WORDS = ["a", "B", "abc", "Abc", "10", "9", "-3", "+4", "1e3", "0x1F", "1.5", "-0.0", "0", "nan", "inf", "1K",
         "2M", "1G", "Jan", "feb", "DEC", "1.2.10", "1.10.2", "v2", "  7", " x", "\u00e9", "Z\u00fcrich", "", "_",
         "a-b", "a b"]
FLAGS = ["-z", "-c", "-C", "--stable", "-n", "-r", "-f", "-b", "-d", "-i", "-g", "-h", "-M", "-V", "-u", "-s"]
LOCALES = ["C", "C.UTF-8", "en_US.UTF-8", "de_DE.UTF-8", "sv_SE.UTF-8"]


def installed(locales):
    have = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.lower().replace("utf-8", "utf8")
    names = set(have.split())
    return [l for l in locales if l.lower().replace("utf-8", "utf8") in names]


def one_case(rnd):
    sep = rnd.choice([" ", ",", "\t", ":"])

    def field():
        if rnd.random() < 0.3:
            return str(rnd.randint(-50, 50)) + rnd.choice(["", ".5", "e2", "K", ""])
        return rnd.choice(WORDS)

    text = "".join(sep.join(field() for _ in range(rnd.randint(1, 4))) + "\n" for _ in range(rnd.randint(0, 30)))
    args = []
    if rnd.random() < 0.5 and sep != " ":
        args += ["-t", sep]
    args += rnd.sample(FLAGS, rnd.randint(0, 3))
    if rnd.random() < 0.6:
        start = rnd.randint(1, 3)
        key = str(start) + ("." + str(rnd.randint(1, 3)) if rnd.random() < 0.3 else "")
        if rnd.random() < 0.7:
            key += "," + str(rnd.randint(start, 4))
        if rnd.random() < 0.4:
            key += rnd.choice(["n", "r", "f", "b", "g", "h", "M", "V", "nr", "bf"])
        args += ["-k", key]
        if rnd.random() < 0.3:
            args += ["-k", str(rnd.randint(1, 3)) + rnd.choice(["", "n", "r"])]
    return text.encode(), args


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("corank")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cases", type=int, default=500)
    o = p.parse_args()
    rnd = random.Random(o.seed)
    locales = installed(LOCALES)
    differ = 0
    for _ in range(o.cases):
        text, args = one_case(rnd)
        env = dict(os.environ, LC_ALL=rnd.choice(locales))
        gnu = subprocess.run(["sort"] + args, input=text, capture_output=True, env=env)
        ours = subprocess.run([o.corank] + args, input=text, capture_output=True, env=env)
        if gnu.stdout != ours.stdout or gnu.returncode != ours.returncode:
            differ += 1
            print(f"differs: LC_ALL={env['LC_ALL']} {args!r} input {text!r}")
            print(f"  GNU    ({gnu.returncode}): {gnu.stdout[:300]!r} {gnu.stderr[:200]!r}")
            print(f"  corank ({ours.returncode}): {ours.stdout[:300]!r} {ours.stderr[:200]!r}")
    print(f"{o.cases} cases in {', '.join(locales)}: {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

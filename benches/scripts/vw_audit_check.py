#!/usr/bin/env python3
"""Holds rosenblatt's VW text reader to Vowpal Wabbit itself: for many
generated lines and settings, every row's features as `rosenblatt inspect
--audit --json` lists them must be those VW's `--audit` prints (name, index
and value), row for row.

usage: python3 benches/scripts/vw_audit_check.py ROSENBLATT_BINARY [--lines N] [--seed S] [--write DIR]

With --write DIR it also keeps, per setting K, the lines (`K.vw`),
rosenblatt's flags (`K.flags`, one per line) and VW's audit (`K.audit`: a
line per row, its features as tab-separated `name`, `index`, `value`
triples, sorted): the expected outputs `crates/rosenblatt/tests/vw_audit.rs`
holds the reader to in every `cargo test`, without VW.

Needs the `vowpalwabbit` package (VW 9, its own driver run in a child
process: `Workspace("-d FILE --audit …")`). Exits 1 on the first
difference, printing the line, the settings and both lists.

The generated lines cover: importance weights, tags, namespaces with and without names and scales,
several namespaces sharing a first letter, the default namespace, named,
digits-only (VW's numbers), anonymous and string-valued (`color:red`)
features, values in plain, exponent and negative forms, repeated features;
the settings: bits, hash seeds, `--hash all`, quadratic, cubic and
higher-order interactions (a namespace with itself, `:` wildcards,
duplicates in another order), `--ignore`, `--ignore_linear`, `--keep`.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

VW_CHILD = r"""
import sys
from vowpalwabbit import Workspace
ws = Workspace(sys.argv[1])
ws.finish()
"""

LETTERS = "abcxyzAB"


def feature(rng, strings=True):
    kind = rng.random()
    if kind < 0.35:
        name = rng.choice(["x", "y", "word", "the_man", "Größe", "a.b", "f1", "z-9"])
    elif kind < 0.55:
        name = str(rng.choice([0, 1, 7, 42, 123456, 4294967295, 98765432109]))
    elif kind < 0.65:
        name = ""
    else:
        name = "w%d" % rng.randrange(50)
    v = rng.random()
    if v < 0.4:
        return name if name else ":1"
    if v < 0.6 and strings:
        return "%s:%s" % (name, rng.choice(["red", "blue", "ab12", "x:y"]))
    value = rng.choice(["2", "0.5", "-1.25", "3e2", "1E-3", "0.1234567", "-0", "7.", "0"])
    return "%s:%s" % (name, value)


def namespace(rng, default_strings):
    r = rng.random()
    strings = True
    if r < 0.2:
        head = ""
        strings = default_strings
    else:
        head = rng.choice(LETTERS) + rng.choice(["", "", "ns", "_feat", "1"])
        if rng.random() < 0.2:
            head += ":" + rng.choice(["2", "0.5", "-1"])
    feats = " ".join(feature(rng, strings) for _ in range(rng.randrange(0, 5)))
    return "|%s %s" % (head, feats)


def line(rng, default_strings=True):
    label = rng.choice(["1", "-1"]) + rng.choice(["", "", "", " 2", " 0.5", " 0"])
    tag = rng.choice(["", "", " 'tag1", "t2"])
    spaces = " ".join(namespace(rng, default_strings) for _ in range(rng.randrange(1, 5)))
    sep = "" if tag.startswith("t") else " "
    return "%s%s%s%s" % (label, tag, sep if tag else " ", spaces)


def settings(rng):
    """(rosenblatt flags, VW flags) for one random setting."""
    ours, vw = [], []
    bits = rng.choice([18, 18, 10, 12, 24, 30])
    ours += ["--bits", str(bits)]
    vw += ["-b", str(bits)]
    if rng.random() < 0.3:
        seed = rng.choice([1, 7, 123456789])
        ours += ["--hash-seed", str(seed)]
        vw += ["--hash_seed", str(seed)]
    if rng.random() < 0.2:
        ours += ["--hash", "all"]
        vw += ["--hash", "all"]
    for _ in range(rng.choice([0, 1, 1, 2])):
        q = rng.choice(["ab", "ba", "aa", "ax", "::", "a:", "xy"])
        ours += ["--quadratic", q]
        vw += ["-q", q]
    if rng.random() < 0.3:
        c = rng.choice(["abx", "aab", "aba", "aaa", "ab:"])
        ours += ["--cubic", c]
        vw += ["--cubic", c]
    if rng.random() < 0.15:
        i = rng.choice(["abxy", "aabb"])
        ours += ["--interactions", i]
        vw += ["--interactions", i]
    r = rng.random()
    if r < 0.1:
        ours += ["--ignore", "x"]
        vw += ["--ignore", "x"]
    elif r < 0.2:
        ours += ["--keep", "ab"]
        vw += ["--keep", "a", "--keep", "b"]
    elif r < 0.3:
        ours += ["--ignore-linear", "a"]
        vw += ["--ignore_linear", "a"]
    return ours, vw


def vw_audit(path, flags):
    """VW's audit: per row, a sorted list of (name, index, value text)."""
    args = " ".join(["-d", path, "--audit", "--noconstant", "--quiet"] + flags)
    out = subprocess.run([sys.executable, "-c", VW_CHILD, args], capture_output=True, text=True, check=True).stdout
    rows = []
    # Two lines an example: its prediction (and tag), then its features
    # (empty for a row with none).
    for l in out.splitlines()[1::2]:
        feats = []
        for cell in l.split("\t"):
            if not cell:
                continue
            name, index, value, _ = cell.rsplit(":", 3)
            feats.append((name, int(index), value))
        rows.append(sorted(feats))
    return rows


def our_audit(binary, path, flags, n):
    cmd = [binary, "inspect", "--audit", path, "--rows", str(n), "--json"] + flags
    doc = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    # VW prints values with C++'s default stream precision (6 digits).
    return [sorted((f["name"], f["index"], "%g" % f["value"]) for f in r["features"]) for r in doc["rows"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--lines", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--table", action="store_true", help="print each setting's flags and agreeing rows (Markdown)")
    ap.add_argument("--write", metavar="DIR", help="keep each setting's lines, flags and VW's audit in DIR")
    a = ap.parse_args()
    try:
        import vowpalwabbit  # noqa: F401
    except ImportError:
        sys.exit("vw_audit_check: the vowpalwabbit package is needed (pip install vowpalwabbit)")
    rng = random.Random(a.seed)
    per = 100
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(max(1, a.lines // per)):
            ours_flags, vw_flags = settings(rng)
            # Under --ignore-linear, VW's audit names must tell a
            # namespace's features (`ns^name`) from the default's: no
            # string values (`name^value`) in the default namespace then.
            plain = "--ignore-linear" not in ours_flags
            lines = [line(rng, plain) for _ in range(per)]
            path = os.path.join(tmp, "d%d.vw" % k)
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
            want = vw_audit(path, vw_flags)
            # VW's audit lists the linear terms --ignore_linear leaves out
            # of its predictions (gd_predict.h skips them); rosenblatt's
            # lists what the model uses.
            if "--ignore-linear" in ours_flags:
                off = ours_flags[ours_flags.index("--ignore-linear") + 1]
                letter = lambda n: n.split("^")[0][:1] if "^" in n else " "
                want = [[f for f in r if "*" in f[0] or letter(f[0]) not in off] for r in want]
            if a.write:
                os.makedirs(a.write, exist_ok=True)
                stem = os.path.join(a.write, "%02d" % (k + 1))
                with open(stem + ".vw", "w", encoding="utf-8") as f:
                    f.write("\n".join(lines) + "\n")
                with open(stem + ".flags", "w", encoding="utf-8") as f:
                    f.write("\n".join(ours_flags) + "\n")
                with open(stem + ".audit", "w", encoding="utf-8") as f:
                    for r in want:
                        f.write("\t".join("%s\t%d\t%s" % feat for feat in r) + "\n")
            got = our_audit(a.binary, path, ours_flags, per)
            if len(want) != len(got):
                sys.exit("%s: VW listed %d rows, rosenblatt %d (flags %s)" % (path, len(want), len(got), ours_flags))
            for i, (w, g) in enumerate(zip(want, got)):
                if w != g:
                    print("line: %s" % lines[i])
                    print("flags: rosenblatt %s; VW %s" % (" ".join(ours_flags), " ".join(vw_flags)))
                    print("VW only:         %s" % sorted(set(w) - set(g)))
                    print("rosenblatt only: %s" % sorted(set(g) - set(w)))
                    sys.exit(1)
            checked += len(lines)
            if a.table:
                if k == 0:
                    print("| setting | VW's flags | rows | rows agreeing |")
                    print("|---|---|---:|---:|")
                print("| %d | `%s` | %d | %d |" % (k + 1, " ".join(vw_flags), len(want), sum(w == g for w, g in zip(want, got))))
    print("vw_audit_check: %d lines over %d settings: every feature's name, index and value is VW's" % (checked, a.lines // per))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""tests/real/run.py: every case of tests/real (FORMAT.md) through
rdma-analyze, its EXPECT checked against the JSON report.

    run.py RA RC [CASE...]        TAP-like lines: ok / not ok / skip
    run.py --table RA RC          the README's table, on stdout

A case listed in KNOWN-GAPS ("case: why") that fails is a skip naming the
gap; one that passes is a failure until it is taken off the list, so the
list stays true.  Standard library only."""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEV = {"info": 0, "warning": 1, "critical": 2}


def parse_expect(path):
    e = {"input": "in", "mode": "analyze", "read": [], "unread": [],
         "finding": [], "absent": [], "skipped": [], "note": []}
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("note:") else raw.strip()
            if not line or ":" not in line:
                continue
            key, val = line.split(":", 1)
            key, val = key.strip(), val.strip()
            if key in ("read", "unread", "finding", "absent", "skipped", "note"):
                e[key].append(val)
            elif key in ("input", "stdin", "mode", "healthy", "exit"):
                e[key] = val
    return e


def known_gaps():
    gaps = {}
    p = os.path.join(HERE, "KNOWN-GAPS")
    if os.path.exists(p):
        with open(p, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#") and ":" in line:
                    c, why = line.split(":", 1)
                    gaps[c.strip()] = why.strip()
    return gaps


def run_case(case, ra, rc_bin):
    d = os.path.join(HERE, case)
    e = parse_expect(os.path.join(d, "EXPECT"))
    stdin = None
    with tempfile.TemporaryDirectory() as tmp:
        if e.get("stdin"):
            stdin = open(os.path.join(d, e["stdin"]), "rb")
            arg = "-"
        elif e["mode"] == "root":
            b = os.path.join(tmp, "b.rdma.tar.zst")
            r = subprocess.run([rc_bin, "-q", "--root", os.path.join(d, e["input"]),
                                "-o", b], capture_output=True, timeout=120)
            if r.returncode != 0 or not os.path.exists(b):
                return e, ["rdma-collect --root failed: %s" %
                           r.stderr.decode(errors="replace").strip()[:200]], None
            arg = b
        else:
            arg = os.path.join(d, e["input"])
        r = subprocess.run([ra, "report", "-f", "json", arg], stdin=stdin,
                           capture_output=True, timeout=120)
        if stdin:
            stdin.close()
    errs = []
    try:
        rep = json.loads(r.stdout.decode())
    except ValueError:
        return e, ["no JSON report (exit %d): %s" % (r.returncode,
                   r.stderr.decode(errors="replace").strip()[:200])], r.returncode
    finds = [(f["rule"], f["component"], f["severity"])
             for n in rep.get("nodes", []) for f in n["findings"]]
    skipped = {s["rule"] for n in rep.get("nodes", []) for s in n["skipped"]}
    inputs = [x for n in rep.get("nodes", []) for x in n.get("inputs", [])]

    def comp_ok(want, got):
        return want == "*" or got == want or got.startswith(want + " ") or \
            got.split(" ")[0] == want

    if "exit" in e and str(r.returncode) != e["exit"]:
        errs.append("exit %d, expected %s" % (r.returncode, e["exit"]))
    if e.get("healthy") == "yes":
        bad = [f for f in finds if f[2] in ("warning", "critical")]
        if r.returncode != 0 or bad:
            errs.append("healthy expected: exit %d, %s" % (r.returncode,
                        ", ".join("%s %s" % f[:2] for f in bad[:4])))
    elif e.get("healthy") == "no":
        if not any(f[2] in ("warning", "critical") for f in finds):
            errs.append("a finding at warning or above expected, none")
    for want in e["finding"]:
        w = want.split()
        rule, comp = w[0], w[1] if len(w) > 1 else "*"
        sev = w[2] if len(w) > 2 else None
        hit = [f for f in finds if f[0] == rule and comp_ok(comp, f[1])]
        if sev:
            if sev.endswith("+"):
                hit = [f for f in hit if SEV[f[2]] >= SEV[sev[:-1]]]
            else:
                hit = [f for f in hit if f[2] == sev]
        if not hit:
            have = ["%s %s %s" % f for f in finds if f[0] == rule]
            errs.append("missing %s%s" % (want, " (have: %s)" % "; ".join(have[:3])
                                          if have else ""))
    for want in e["absent"]:
        w = want.split()
        rule, comp = w[0], w[1] if len(w) > 1 else "*"
        hit = [f for f in finds if f[0] == rule and comp_ok(comp, f[1])]
        if hit:
            errs.append("unexpected %s %s %s" % hit[0])
    for want in e["skipped"]:
        if want.split()[0] not in skipped:
            errs.append("not skipped: %s" % want)

    def base(p):
        return p.split("/", 1)[1] if p.startswith("in/") else p

    for want in e["read"]:
        w = base(want)
        mine = [x for x in inputs if x["file"] == w or x["file"] == os.path.basename(w)
                or (e.get("stdin") and x["file"] == "stdin")]
        if e["mode"] == "root":
            continue	# a --root tree is read by the collector
        if not mine:
            if not rep.get("nodes"):
                errs.append("not read: %s (nothing was read)" % w)
            continue	# a bundle-like input without import records
        if not any(x["status"] in ("read", "partial") for x in mine):
            errs.append("not read: %s (%s)" % (w, mine[0].get("reason", "")[:120]))
    for want in e["unread"]:
        w = base(want)
        if not any(f[0] == "INPUT_UNREAD" and f[1].split(":")[0] == w for f in finds):
            errs.append("not reported INPUT_UNREAD: %s" % w)
    run_case.last = rep
    return e, errs, r.returncode


def rule_layers(ra):
    """rule -> layer, from `rdma-analyze rules` (ID, layer, severity, text)"""
    r = subprocess.run([ra, "rules"], capture_output=True, timeout=60)
    out = {}
    for line in r.stdout.decode(errors="replace").splitlines():
        w = line.split()
        if len(w) >= 3 and re.match(r"^[A-Z0-9_]+$", w[0]):
            out[w[0]] = w[1]
    return out


LAYERS_1_6 = ("hca", "kernel", "sm", "verbs", "perf", "app", "evidence")


def coverage(ra, rc_bin, names):
    """per reader the cases it read; per rule the cases it fired on, the
    cases where it ran on real evidence and did not fire, and the cases
    that skipped it for want of evidence.  A rule is exercised by a case
    where it fired or ran: an `absent:` line on a skipped rule proves
    nothing, so it is not counted."""
    readers, fired, quiet, skipped = {}, {}, {}, {}
    layers = rule_layers(ra)
    for c in names:
        run_case.last = None
        e, errs, code = run_case(c, ra, rc_bin)
        rep = run_case.last or {}
        for n in rep.get("nodes", []):
            for x in n.get("inputs", []):
                if x["status"] in ("read", "partial") and x["reader"]:
                    readers.setdefault(x["reader"], set()).add(c)
            fn = {f["rule"] for f in n["findings"]}
            sk = {s["rule"] for s in n["skipped"]}
            for r in layers:
                if r in fn:
                    fired.setdefault(r, set()).add(c)
                elif r in sk:
                    skipped.setdefault(r, set()).add(c)
                else:
                    quiet.setdefault(r, set()).add(c)
        if e["mode"] == "root":
            readers.setdefault("rdma-collect --root (sysfs tree)", set()).add(c)
    out = ["| reader | real cases read by it |", "|---|---|"]
    for r in sorted(readers):
        out.append("| %s | %d: %s |" % (r, len(readers[r]), ", ".join(sorted(readers[r])[:6]) +
                                        (" ..." if len(readers[r]) > 6 else "")))
    out += ["", "| check | layer | fires on | runs, does not fire | skipped (no evidence) |",
            "|---|---|---|---|---|"]
    none = []
    for r in sorted(layers, key=lambda r: (LAYERS_1_6.index(layers[r])
                                           if layers[r] in LAYERS_1_6 else 99, r)):
        if layers[r] not in LAYERS_1_6:
            continue
        nf, nq = len(fired.get(r, ())), len(quiet.get(r, ()))
        out.append("| %s | %s | %d | %d | %d |" % (r, layers[r], nf, nq,
                                                   len(skipped.get(r, ()))))
        if not nf:
            none.append(r)
    out += ["", "Checks of layers 1-6 and evidence that fire on no real case: %s" %
            (", ".join(none) if none else "none")]
    print("\n".join(out))


def cases(argv):
    if argv:
        return argv
    return sorted(c for c in os.listdir(HERE)
                  if os.path.isfile(os.path.join(HERE, c, "EXPECT")))


def source_line(case):
    try:
        with open(os.path.join(HERE, case, "SOURCE"), encoding="utf-8",
                  errors="replace") as f:
            first = f.readline().strip()
    except OSError:
        return "?"
    m = re.search(r"repo:\s*(\S+)", first)
    if m:
        return m.group(1)
    m = re.search(r"https?://(\S+)", first)
    return (m.group(1)[:60] if m else first[:60])


def main():
    table = False
    args = sys.argv[1:]
    if args and args[0] == "--coverage":
        coverage(args[1], args[2], cases(args[3:]))
        return
    if args and args[0] == "--table":
        table = True
        args = args[1:]
    ra, rc_bin = args[0], args[1]
    gaps = known_gaps()
    rows = []
    for c in cases(args[2:]):
        try:
            e, errs, code = run_case(c, ra, rc_bin)
        except subprocess.TimeoutExpired:
            e, errs, code = parse_expect(os.path.join(HERE, c, "EXPECT")), ["timed out"], None
        passed = not errs
        if table:
            want = [x.split()[0] + " " + (x.split()[1] if len(x.split()) > 1 else "")
                    for x in e["finding"]]
            exp = "; ".join(filter(None, [
                ("healthy: " + e["healthy"]) if e.get("healthy") else "",
                ", ".join(want[:3]) + (" ..." if len(want) > 3 else ""),
                ("not " + ", ".join(x.split()[0] for x in e["absent"][:3])) if e["absent"] else "",
            ]))
            res = "pass" if passed else ("gap: " + gaps[c] if c in gaps else "FAIL")
            rows.append("| %s | %s | %s | %s |" % (c, source_line(c), exp.replace("|", "/"),
                                                 res.replace("|", "/")))
            continue
        if passed and c in gaps:
            print("not ok - real/%s passes now: take it off KNOWN-GAPS" % c)
        elif passed:
            print("ok - real/%s" % c)
        elif c in gaps:
            print("skip - real/%s: known gap: %s (%s)" % (c, gaps[c], "; ".join(errs)[:300]))
        else:
            print("not ok - real/%s" % c)
            for x in errs:
                print("#   %s" % x)
    if table:
        print("| case | source | expectation | result |")
        print("|---|---|---|---|")
        print("\n".join(rows))


if __name__ == "__main__":
    main()

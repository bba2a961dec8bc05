# prom-strict.py FILE: the text exposition format 0.0.4 as node_exporter's
# textfile collector needs it, and the conventions of schema/REPORT.md
# (used by tests/cli/report-prom.sh and tests/cli/check-state.sh)
import re, sys
name = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
lval = r'"(?:[^"\\\n]|\\[\\"n])*"'
sample = re.compile(r"(%s)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*=%s)(?:,[a-zA-Z_][a-zA-Z0-9_]*=%s)*)\})? "
                    r"(-?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)$" % (name, lval, lval))
label = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)=(%s)' % lval)
data = open(sys.argv[1], "rb").read()
err = []
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit("not UTF-8: %s" % e)
if text and not text.endswith("\n"):
    err.append("no final newline")
seen, done, cur, series = {}, set(), None, set()
for n, line in enumerate(text.split("\n")[:-1], 1):
    m = re.match(r"# (HELP|TYPE) (%s) (.*)$" % name, line)
    if m:
        kind, fam = m.group(1), m.group(2)
        if fam != cur:
            if fam in done:
                err.append("%d: family %s again" % (n, fam))
            if cur:
                done.add(cur)
            cur = fam
            seen[fam] = set()
        if kind in seen[fam]:
            err.append("%d: second %s of %s" % (n, kind, fam))
        if "sample" in seen[fam]:
            err.append("%d: %s after a sample of %s" % (n, kind, fam))
        if kind == "TYPE" and m.group(3) not in ("counter", "gauge"):
            err.append("%d: type %s" % (n, m.group(3)))
        if kind == "TYPE" and (m.group(3) == "counter") != fam.endswith("_total"):
            err.append("%d: %s: a counter is NAME_total and only a counter" % (n, fam))
        seen[fam].add(kind)
        continue
    if line.startswith("#"):
        err.append("%d: a comment" % n)
        continue
    m = sample.match(line)
    if not m:
        err.append("%d: not a sample without timestamp: %r" % (n, line[:120]))
        continue
    fam = m.group(1)
    if fam != cur:
        err.append("%d: %s outside its HELP/TYPE block" % (n, fam))
        continue
    if seen[fam] != {"HELP", "TYPE"} and seen[fam] != {"HELP", "TYPE", "sample"}:
        err.append("%d: %s without HELP and TYPE" % (n, fam))
    seen[fam].add("sample")
    labels = label.findall(m.group(2) or "")
    names = [l[0] for l in labels]
    if len(set(names)) != len(names) or not names or names[0] != "node":
        err.append("%d: labels %s" % (n, names))
    key = (fam, tuple(labels))
    if key in series:
        err.append("%d: the same series twice" % n)
    series.add(key)
for e in err[:20]:
    print(e)
sys.exit(1 if err else 0)

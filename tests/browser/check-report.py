#!/usr/bin/env python3
"""check-report.py MODE HTML JSON SHOTS: the HTML report in a real browser.

MODE samples: load the report of the sample bundles and check it against
the JSON report of the same bundles: the grid's counts per node and layer,
a clicked cell's findings, a filter, the search box, sorting, a deep link
before and after a reload; no console error, no CSP violation, no request.
MODE hostile: a report whose hostnames, device strings and kernel-log lines
carry markup and script: nothing of it may become an element or run, and
the strings must show literally.
MODE pics: a report of a fabric scan, a pairs run and a node's history:
the heatmap, the fabric picture and the timelines are drawn, the pairs
suspect is highlighted in both, and a heatmap cell, the suspect's host
and the node panel's timeline link lead where they say.
MODE time: how long the page takes to be ready (for make bench).

Prints one "ok - ", "not ok - " or "skip - " line per check (tests/lib.sh);
screenshots go to SHOTS.
"""
import collections
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

failed = 0


def check(what, cond, detail=""):
    global failed
    if cond:
        print("ok - " + what)
    else:
        failed += 1
        print("not ok - " + what)
        if detail:
            for line in str(detail).splitlines()[:20]:
                print("#   " + line)


LAYERS = ["hca", "kernel", "sm", "verbs", "perf", "app", "fleet", "history",
          "pairs", "evidence"]


def load(b, url):
    b.goto(url)
    return b.wait_for("document.body.dataset.ready==='1'", 30)


def shown_rows(b):
    """the findings table as [severity, node, layer, rule, component]"""
    return b.eval("Array.from(document.querySelectorAll('#findings tbody tr'))"
                  ".map(function(tr){var c=tr.cells;return [c[0].textContent,"
                  "c[1].textContent,c[2].textContent,c[3].firstChild.textContent,"
                  "c[4].textContent];})")


def samples(b, html, rep, shots):
    url = "file://" + os.path.abspath(html)
    t0 = time.time()
    check("the page loads and its script runs", load(b, url))
    ms = int((time.time() - t0) * 1000)
    print("# ready in %d ms" % ms)
    b.screenshot(os.path.join(shots, "1-first-screen.png"))
    b.screenshot(os.path.join(shots, "0-whole-page.png"), full=True)

    # the verdict comes first and names what is wrong
    first = b.eval("document.querySelector('main').firstElementChild.textContent")
    s = rep["summary"]
    crit_nodes = sum(1 for n in rep["nodes"] if n["worst"] == "critical")
    check("the first thing on the page is the verdict (%s)" % first,
          first.startswith("Critical: %d of %d node(s)" % (crit_nodes, len(rep["nodes"])))
          if crit_nodes else first.startswith(("Warning", "OK")), first)
    counts = b.eval("Array.from(document.querySelectorAll('.counts span'))"
                    ".map(function(e){return e.textContent;})")
    check("counts by severity equal the JSON report's summary",
          counts[:3] == ["%d critical" % s["critical"], "%d warning" % s["warning"],
                         "%d info" % s["info"]], counts)
    top = b.eval("Array.from(document.querySelectorAll('#top tr')).slice(1)"
                 ".map(function(tr){return tr.cells[1].querySelector('a').textContent;})")
    want_top = collections.OrderedDict()
    for n in rep["nodes"]:
        for f in n["findings"]:
            if f["severity"] != "info":
                want_top[f["rule"]] = 1
    check("'What is wrong' lists every rule at warning or above once",
          sorted(top) == sorted(want_top), (sorted(top), sorted(want_top)))

    # the grid against the JSON report, cell by cell
    grid = b.eval("Array.from(document.querySelectorAll('#grid td[data-layer]'))"
                  ".map(function(td){return [td.dataset.node,td.dataset.layer,"
                  "td.textContent,td.className];})")
    want = collections.Counter()
    worst = {}
    rank = {"info": 0, "warning": 1, "critical": 2}
    for n in rep["nodes"]:
        for f in n["findings"]:
            want[(n["node"], f["layer"])] += 1
            k = (n["node"], f["layer"])
            worst[k] = max(worst.get(k, -1), rank[f["severity"]])
    got = {(g[0], g[1]): int(g[2]) for g in grid if g[2].isdigit()}
    check("the grid has a row per node and a column per layer",
          len(grid) == len(rep["nodes"]) * len(LAYERS), len(grid))
    check("every grid count equals the JSON report's findings per node and layer",
          got == dict(want), {k: (got.get(k), want.get(k)) for k in set(got) | set(want)
                              if got.get(k) != want.get(k)})
    bad = [g for g in grid if (g[0], g[1]) in worst and
           g[3].split()[0] != "sev-%d" % worst[(g[0], g[1])]]
    check("every grid cell is coloured by its worst finding", not bad, bad[:5])

    # click the worst cell: the findings of that node and layer
    node, layer = max(worst, key=lambda k: (worst[k], want[k], k))
    b.click("#grid td[data-node=%s][data-layer=%s]" % (json.dumps(node), json.dumps(layer)))
    b.wait_for("location.hash.indexOf('layer=')>=0", 5)
    rows = shown_rows(b)
    exp = sorted((f["severity"], n["node"], f["layer"], f["rule"], f["component"])
                 for n in rep["nodes"] if n["node"] == node
                 for f in n["findings"] if f["layer"] == layer)
    check("clicking the %s/%s cell shows exactly its %d finding(s)" % (node, layer, len(exp)),
          sorted(tuple(r) for r in rows) == exp, (rows, exp))
    panel = b.eval("document.querySelector('#node h2')&&document.querySelector('#node h2').textContent")
    check("the node panel opens for " + node, panel == node, panel)
    views = b.eval("Array.from(document.querySelectorAll('#node details[data-view]'))"
                   ".map(function(d){return d.dataset.view;})")
    check("the node's command-equivalent views are there, folded (%s)" % ", ".join(views),
          "ibstat" in views and any(v.startswith("lspci") for v in views) and
          b.eval("Array.from(document.querySelectorAll('#node details[data-view]')).every("
                 "function(d){return !d.open;})"), views)
    b.click("#node details[data-view=ibstat] summary")
    txt = b.eval("document.querySelector('#node details[data-view=ibstat]').open&&"
                 "document.querySelector('#node details[data-view=ibstat] pre').textContent")
    check("ibstat unfolds on a click and reads like ibstat", bool(txt) and txt.startswith("CA '"),
          (txt or "")[:200])
    b.screenshot(os.path.join(shots, "2-cell-clicked.png"))

    # a filter: critical only, all nodes
    b.click("#f-clear")
    b.eval("var s=document.getElementById('f-sev');s.value='2';"
           "s.dispatchEvent(new Event('change'))")
    rows = shown_rows(b)
    ncrit = s["critical"]
    check("the severity filter shows the %d critical findings and nothing else" % ncrit,
          len(rows) == min(ncrit, 200) and all(r[0] == "critical" for r in rows),
          rows[:5])
    # sorting by node, then the other way
    b.click("#findings th[data-k=node]")
    names = [r[1] for r in shown_rows(b)]
    check("sorting by node orders the rows by node", names == sorted(names), names[:10])
    b.click("#findings th[data-k=node]")
    names = [r[1] for r in shown_rows(b)]
    check("a second click sorts the other way", names == sorted(names, reverse=True), names[:10])
    h = b.eval("location.hash")
    b.reload()
    b.wait_for("document.body.dataset.ready==='1'", 30)
    rows = shown_rows(b)
    check("filter and sort survive a reload (%s)" % h,
          b.eval("location.hash") == h and len(rows) == min(ncrit, 200) and
          [r[1] for r in rows] == sorted([r[1] for r in rows], reverse=True),
          (b.eval("location.hash"), h, len(rows)))

    # the search box: real typing
    b.click("#f-clear")
    f0 = next(f for n in rep["nodes"] for f in n["findings"] if f["evidence"])
    word = f0["evidence"][0]["value"].split()[0]
    b.type_text("#f-q", word)
    rows = b.eval("Array.from(document.querySelectorAll('#findings tbody tr'))"
                  ".map(function(tr){return tr.textContent;})")
    exp = sum(1 for n in rep["nodes"] for f in n["findings"]
              if word.lower() in "\n".join([n["node"], f["rule"], f["component"], f["summary"]] +
                                           [e["path"] + " " + e["value"] for e in f["evidence"]]).lower()
              or word.lower() in (f.get("title") or "").lower())
    check("searching '%s' shows the findings that mention it (%d)" % (word, len(rows)),
          len(rows) >= 1 and all(word.lower() in r.lower() for r in rows) and len(rows) <= max(exp, 1) + 50,
          (len(rows), exp))
    b.screenshot(os.path.join(shots, "3-search.png"))

    # a deep link #node/rule, then a reload
    n1 = next(n for n in rep["nodes"] if any(f["severity"] == "critical" for f in n["findings"]))
    r1 = next(f["rule"] for f in n1["findings"] if f["severity"] == "critical")
    link = "%s#%s/%s" % (url, n1["node"], r1)
    b.goto(link)
    b.wait_for("document.body.dataset.ready==='1'", 30)

    def deep_ok():
        hit = b.eval("Array.from(document.querySelectorAll('#findings tr.hit'))"
                     ".map(function(tr){return [tr.dataset.node,tr.dataset.rule];})")
        rows = shown_rows(b)
        return (hit and all(x == [n1["node"], r1] for x in hit) and
                all(r[1] == n1["node"] and r[3] == r1 for r in rows) and
                b.eval("!document.getElementById('node').hidden"), (hit, rows))
    ok, detail = deep_ok()
    check("the deep link #%s/%s shows that finding, highlighted" % (n1["node"], r1), ok, detail)
    b.screenshot(os.path.join(shots, "4-deep-link.png"))
    b.reload()
    b.wait_for("document.body.dataset.ready==='1'", 30)
    ok, detail = deep_ok()
    check("the deep link survives a reload", ok, detail)
    # a link of the "What is wrong" table
    b.goto(url)
    b.wait_for("document.body.dataset.ready==='1'", 30)
    b.click("#top a")
    rule = b.eval("document.querySelector('#top a').textContent")
    # the hashchange event comes after the click: wait for its redraw
    b.wait_for("Array.from(document.querySelectorAll('#findings tbody tr')).every("
               "function(tr){return tr.dataset.rule===%s;})" % json.dumps(rule), 5)
    rows = shown_rows(b)
    check("a problem of 'What is wrong' links to its findings on every node (%s)" % rule,
          rows and all(r[3] == rule for r in rows) and len(rows) == sum(
              1 for n in rep["nodes"] for f in n["findings"] if f["rule"] == rule), rows[:5])

    # pictures: the PCIe chart shows the degraded links the JSON names
    svg = b.eval("Array.from(document.querySelectorAll('#pic-pcie a title'))"
                 ".map(function(t){return t.textContent;})")
    degraded = sorted(set(n["node"] for n in rep["nodes"] for f in n["findings"]
                          if f["rule"] == "PCIE_LINK_DEGRADED" and f["layer"] == "hca"))
    check("the PCIe picture draws each node with a degraded HCA link (%s)" % ", ".join(degraded),
          all(any(t.startswith(d + " ") for t in svg) for d in degraded), svg[:5])
    check("the firmware and driver pictures are drawn",
          b.eval("!!document.querySelector('#pic-fw svg rect')&&"
                 "!!document.querySelector('#pic-driver svg rect')"))
    p = b.problems(url)
    check("no console error, no CSP violation, no network request", not p, "\n".join(p))


def hostile(b, html, rep, shots, markers):
    url = "file://" + os.path.abspath(html)
    check("the hostile report loads and its script runs", load(b, url))
    n = rep["nodes"][0]["node"]
    b.click("#grid td[data-layer]")
    b.goto("%s#%s/" % (url, n.replace("%", "%25").replace("/", "%2F")
                       .replace("#", "%23").replace("?", "%3F")))
    b.wait_for("document.body.dataset.ready==='1'", 30)
    b.eval("document.querySelectorAll('details').forEach(function(d){d.open=true;})")
    b.screenshot(os.path.join(shots, "5-hostile.png"), full=True)
    check("nothing from the bundle ran (window.pwned unset)",
          b.eval("typeof window.pwned") == "undefined", b.eval("String(window.pwned)"))
    injected = b.eval("Array.from(document.querySelectorAll('img,iframe,object,embed,"
                      "marquee,b,base,form,svg script,svg foreignObject,[onerror],[onload],"
                      "[onclick],[onmouseover]')).map(function(e){return e.outerHTML.slice(0,80);})")
    check("no element was made from bundle strings", not injected, injected)
    nscripts = b.eval("document.scripts.length")
    check("the page has its three scripts and no other", nscripts == 3, nscripts)
    check("the node panel opened for the hostile hostname via its deep link",
          b.eval("document.querySelector('#node h2').textContent") == n,
          b.eval("document.querySelector('#node h2')&&document.querySelector('#node h2').textContent"))
    body = b.eval("document.body.textContent")
    for m in markers:
        check("shown literally: %s" % m, m in body)
    p = b.problems(url)
    check("no console error, no CSP violation, no network request", not p, "\n".join(p))


def pics(b, html, rep, shots, suspect):
    url = "file://" + os.path.abspath(html)
    check("the report with pictures loads and its script runs", load(b, url))
    b.eval("document.getElementById('pic-pairs').scrollIntoView()")
    b.screenshot(os.path.join(shots, "6-pairs-fabric.png"))
    cells = b.eval("document.querySelectorAll('#heatmap rect').length")
    check("the pair heatmap is drawn (%d rects)" % cells, cells > 10, cells)
    cross = b.eval("Array.from(document.querySelectorAll('#heatmap path.suspect title'))"
                   ".map(function(t){return t.textContent;})")
    check("the suspect host's row and column are outlined (%s)" % cross,
          any(suspect in t for t in cross), cross)
    host = b.eval("Array.from(document.querySelectorAll('#fabric g.host.suspect title'))"
                  ".map(function(t){return t.textContent;})")
    check("the fabric picture highlights the suspect host", any(t.startswith(suspect)
                                                               for t in host), host)
    line = b.eval("document.querySelectorAll('#fabric line.suspect').length")
    check("the suspect's cable is drawn as a suspect", line >= 1, line)
    # the finding the suspect is stored as, per the JSON report
    owner = [(n["node"], f["rule"]) for n in rep["nodes"] for f in n["findings"]
             if f["layer"] == "pairs" and f["component"] == suspect]
    check("the pairs finding is in the JSON report (%s)" % owner, len(owner) == 1, owner)
    if not owner:
        return
    b.click("#heatmap a[href*='PAIR_'] rect")
    b.wait_for("location.hash.indexOf('PAIR_')>=0&&!!document.querySelector('#findings tr.hit')", 5)
    hit = b.eval("Array.from(document.querySelectorAll('#findings tr.hit'))"
                 ".map(function(tr){return [tr.dataset.node,tr.dataset.rule,tr.cells[4].textContent];})")
    check("clicking a failing heatmap cell shows the suspect's finding",
          hit and all(h[:2] == list(owner[0]) and h[2] == suspect for h in hit), hit)
    b.screenshot(os.path.join(shots, "7-cell-clicked.png"))
    # away from that finding first, so that the click's is a new view
    b.click("#f-clear")
    b.wait_for("!document.querySelector('#findings tr.hit')", 5)
    b.click("#fabric g.host.suspect rect")
    b.wait_for("location.hash.indexOf('PAIR_')>=0&&!!document.querySelector('#findings tr.hit')", 5)
    hit = b.eval("Array.from(document.querySelectorAll('#findings tr.hit'))"
                 ".map(function(tr){return tr.cells[4].textContent;})")
    check("clicking the suspect in the fabric picture shows its finding", hit == [suspect], hit)
    tl = b.eval("Array.from(document.querySelectorAll('#pic-timelines .tl'))"
                ".map(function(d){return d.querySelector('a').textContent;})")
    hist = [n["node"] for n in rep["nodes"] if any(f["layer"] == "history" for f in n["findings"])]
    check("a timeline for each node with a history (%s)" % tl, sorted(tl) == sorted(hist), (tl, hist))
    if tl:
        b.goto("%s#%s/" % (url, tl[0]))
        b.wait_for("document.body.dataset.ready==='1'", 30)
        b.click("#node a.tl-link")
        top = b.eval("document.querySelector('#pic-timelines .tl').getBoundingClientRect().top")
        check("the node panel links to its timeline (scrolled to it: top %s)" % top,
              top is not None and 0 <= top < 600, top)
        pts = b.eval("document.querySelectorAll('#pic-timelines circle').length")
        check("the timeline has its points (%d)" % pts, pts >= 2, pts)
    p = b.problems(url)
    check("no console error, no CSP violation, no network request", not p, "\n".join(p))


def timing(b, html):
    url = "file://" + os.path.abspath(html)
    t0 = time.time()
    ok = load(b, url)
    ms = int((time.time() - t0) * 1000)
    b.click("#grid td[data-layer]")
    ms2 = int((time.time() - t0) * 1000)
    print("browser: page ready in %d ms (%s), a grid click answered by %d ms; "
          "%d grid cells, %d finding rows drawn" % (
              ms, "ok" if ok else "NOT READY", ms2,
              b.eval("document.querySelectorAll('#grid td').length"),
              b.eval("document.querySelectorAll('#findings tbody tr').length")))
    p = b.problems(url)
    if p:
        print("browser problems: " + "; ".join(p[:5]))


def main():
    mode, html, rep_file, shots = sys.argv[1:5]
    rep = json.load(open(rep_file)) if rep_file != "-" else None
    os.makedirs(shots, exist_ok=True)
    try:
        b = cdp.Browser()
    except cdp.CDPError as e:
        print("skip - browser: %s" % e)
        return 0
    try:
        if mode == "samples":
            samples(b, html, rep, shots)
        elif mode == "hostile":
            hostile(b, html, rep, shots, sys.argv[5:])
        elif mode == "pics":
            pics(b, html, rep, shots, sys.argv[5])
        else:
            timing(b, html)
    except cdp.CDPError as e:
        check("the browser session", False, str(e))
    finally:
        b.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

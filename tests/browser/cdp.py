"""cdp: drive Debian's headless Chromium over the DevTools protocol.

No npm, no WebSocket library: Chromium's --remote-debugging-pipe speaks
the protocol as NUL-terminated JSON messages on file descriptors 3 (to the
browser) and 4 (from it), which the standard library handles.  One page,
flattened sessions; every console message, exception, log entry (CSP
violations arrive there) and network request of the page is recorded so a
test can assert there were none.
"""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time


def find_chromium():
    """the browser binary, or None"""
    for p in (os.environ.get("CHROMIUM"), "/usr/bin/chromium",
              "/usr/bin/chromium-browser"):
        if p and os.access(p, os.X_OK):
            return p
    return None


class CDPError(Exception):
    pass


class Browser:
    def __init__(self, width=1400, height=900, timeout=60):
        exe = find_chromium()
        if not exe:
            raise CDPError("chromium is not installed")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="cdp-profile.")
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()

        def fds():
            # dup2 onto 3 and 4 clears close-on-exec (a plain os.pipe() fd
            # that already is 3 would keep it and vanish at exec)
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [exe, "--headless=new", "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile, "--no-first-run",
                "--no-default-browser-check", "--disable-gpu",
                "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--disable-default-apps",
                "--disable-extensions", "--hide-scrollbars",
                "--window-size=%d,%d" % (width, height), "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")
        self.proc = subprocess.Popen(args, preexec_fn=fds, close_fds=False,
                                     stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        for fd in (to_r, from_w):
            os.close(fd)
        self.w = os.fdopen(to_w, "wb")
        self.r = os.fdopen(from_r, "rb")
        self.pending = b""
        self.next_id = 0
        self.events = []
        self.session = None
        self.width, self.height = width, height
        t = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=t,
                                 flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(domain + ".enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width,
                  height=height, deviceScaleFactor=1, mobile=False)

    # ------------------------------------------------------ the protocol
    def _read(self):
        deadline = time.time() + self.timeout
        while b"\0" not in self.pending:
            if time.time() > deadline:
                raise CDPError("no answer from chromium")
            chunk = self.r.read1(1 << 16)
            if not chunk:
                raise CDPError("chromium went away")
            self.pending += chunk
        msg, self.pending = self.pending.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, **params):
        self.next_id += 1
        m = {"id": self.next_id, "method": method, "params": params}
        if self.session:
            m["sessionId"] = self.session
        self.w.write(json.dumps(m).encode() + b"\0")
        self.w.flush()
        while True:
            msg = self._read()
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise CDPError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def wait_event(self, method, timeout=None):
        deadline = time.time() + (timeout or self.timeout)
        seen = len(self.events)
        while True:
            for e in self.events[seen:]:
                if e["method"] == method:
                    return e
            seen = len(self.events)
            if time.time() > deadline:
                raise CDPError("timed out waiting for " + method)
            msg = self._read()
            if "method" in msg:
                self.events.append(msg)

    # ------------------------------------------------------ page helpers
    def goto(self, url):
        """load url afresh (as a typed or followed link does) and wait for
        its load event"""
        if self.eval("location.href").split("#")[0] == url.split("#")[0]:
            # a change of fragment alone is no load: start from a blank page
            self.call("Page.navigate", url="about:blank")
            self.wait_event("Page.loadEventFired")
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def reload(self):
        self.call("Page.reload")
        self.wait_event("Page.loadEventFired")

    def eval(self, expr):
        """the value of a JavaScript expression (JSON-able)"""
        r = self.call("Runtime.evaluate", expression=expr,
                      returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise CDPError("%s: %s" % (expr[:80], r["exceptionDetails"]))
        return r["result"].get("value")

    def wait_for(self, expr, timeout=10):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.eval(expr):
                return True
            time.sleep(0.05)
        return False

    def click(self, selector):
        """a real mouse click in the middle of the first match"""
        rect = self.eval("(function(){var e=document.querySelector(%s);"
                         "if(!e)return null;e.scrollIntoView({block:'center'});"
                         "var r=e.getBoundingClientRect();return [r.x+r.width/2,"
                         "r.y+r.height/2];})()" % json.dumps(selector))
        if not rect:
            raise CDPError("nothing matches " + selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=rect[0],
                      y=rect[1], button="left", clickCount=1)

    def type_text(self, selector, text):
        self.eval("document.querySelector(%s).focus()" % json.dumps(selector))
        self.call("Input.insertText", text=text)

    def screenshot(self, path, full=False):
        params = {"format": "png"}
        if full:
            params["captureBeyondViewport"] = True
            h = self.eval("document.documentElement.scrollHeight")
            params["clip"] = {"x": 0, "y": 0, "width": self.width,
                              "height": min(h, 12000), "scale": 1}
        data = self.call("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    # ------------------------------------------------------ what happened
    def problems(self, page_url):
        """console errors and warnings, exceptions, log errors (CSP) and
        any request other than the page itself, as strings"""
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                out.append("console %s: %s" % (p["type"], " ".join(
                    str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
            elif m == "Runtime.exceptionThrown":
                out.append("exception: %s" % p["exceptionDetails"].get("text"))
            elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                out.append("log %s: %s" % (p["entry"]["level"], p["entry"]["text"]))
            elif m == "Network.requestWillBeSent":
                url = p["request"]["url"]
                if url.split("#")[0] != page_url.split("#")[0]:
                    out.append("request: " + url)
        return out

    def close(self):
        try:
            self.session = None
            self.call("Browser.close")
        except (CDPError, OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for f in (self.w, self.r):
            try:
                f.close()
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

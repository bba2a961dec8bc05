#!/usr/bin/env python3
"""tests/genfleet.py: a synthetic fleet of N nodes x S snapshots, with drifts,
reboots, counter resets, saturations, wraps, firmware upgrades and outliers
injected, for the fleet and history checks and for `make bench`.

    tests/genfleet.py -o OUT [--nodes N] [--snapshots S] [--seed X]
                      [--faulty F] [--interval-h H] [--jobs J] [BUILD]
    tests/genfleet.py --plan -o - [same options]   which node gets what

Writes
    OUT/bundles/<host>-<UTC>.rdma.tar.zst   N x S bundles
    OUT/truth.tsv    what was injected where and when, and what it implies
    OUT/bundles.tsv  every bundle: node, class, snapshot, time, boot_id,
                     origin (real, or derived:<template node>), file

Real and derived bundles
- Node classes: "gpu" nodes are tests/fixtures/mknode.sh gpu-ndr8 trees
  (8x ConnectX-7 NDR InfiniBand), "roce" nodes roce-pfc trees (one dual-port
  ConnectX-6 Dx, RoCE v2); node i is roce when i % 5 == 4.
- REAL collections: the first node of each class (its template, healthy)
  and every faulty node get their own tree, changed snapshot by snapshot
  (counters, /proc/uptime, boot_id, firmware, the kernel log) and collected
  with `rdma-collect --root` and SOURCE_DATE_EPOCH set to the snapshot's
  time.  Faults of the fixtures are applied with tests/fixtures/inject.sh.
- Every node has its own hostname, machine-id, boot_id, GUIDs, MACs and
  IPv4 addresses (addr_subs: node index j < 10,000 in fixed-width fields),
  so duplicates (DUPLICATE_GUID, DUPLICATE_ADDRESS) never fire by accident.
- DERIVED bundles: every other (healthy) node's snapshot s is its class
  template's real snapshot-s bundle with that identity replaced in place
  by the node's, same length (the tar stays valid: header checksums do not
  cover the data), compressed again with the zstd CLI (tests/bench-
  analyze.sh's trick).  So derived nodes of a class are identical apart
  from their identity: counters, uptime and kernel log are the template's.

The clock: snapshot s is taken at T0 + s * H hours (T0 = 1764450245,
2025-11-29T21:04:05Z, the samples' time).  Every node booted 1183942 s
before T0 (the fixtures' uptime).  Counters whose name says traffic (data,
packets, bytes, pause, CNP/ECN, requests, channel events, xmit wait) grow
with the time since their last reset at the fixture's own rate; every
other counter keeps the fixture's value until a reset sets it to 0.

Faults (a faulty node gets one; kinds are dealt in this order over the
faulty nodes, gpu kinds to gpu nodes, roce kinds to roce nodes):
  drift     an error counter grows linearly from snapshot 1 (symbol_error
            on gpu, hw_counters/out_of_sequence on roce)
  accel     port_rcv_errors grows, then 8x faster in the last interval
  reboot    at snapshot K: new boot_id, uptime from 0, counters reset,
            kernel log back to the boot lines
  reload    at snapshot K: driver reload, counters reset, same boot_id
  sat16     symbol_error at 65535 (16-bit PMA maximum) in every snapshot
  sat32     port_xmit_wait at 4294967295 (32-bit maximum) in every snapshot
  wrap64    port_xmit_data wraps past 2^64 between snapshot K-1 and K
  fwup      firmware 28.39.1002 before K, 28.41.1000 (the fleet's) from K,
            with the driver reload a firmware reset brings
  fw-old    firmware 28.39.1002 in every snapshot (class majority 28.41.1000)
  driver    MLNX_OFED 24.07-0.6.1 modules (majority 24.10-1.1.4)
  hca-fewer the HCA at 0000:c4:00.0 (mlx5_7) is gone from PCI
  mtu       inject.sh mtu-below-max on one port (active MTU 1024)
  klog      inject.sh fw-reset at snapshot K: new kernel events from K on

truth.tsv, one row per expected finding (or expected silence):
    node  snap  event  component  detail  check  need
  snap: the snapshot from which it holds ("*": every snapshot);
  component: '|'-separated alternatives a correct rule may name (empty:
  any); detail: what the bundles hold (counter values per snapshot, the
  firmware before and after, ...), which tests/cli/genfleet.sh checks
  against the loaded database; need: required (the check must report
  it), implied (a real consequence a rule may report), absent (the check
  must NOT report it on that component: resets and wraps are not growth).

Deterministic: the same arguments (and seed) give the same files, byte
for byte.  Needs python3, bash, coreutils, zstd and the built rdma-collect.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MKNODE = os.path.join(TOP, "tests", "fixtures", "mknode.sh")
INJECT = os.path.join(TOP, "tests", "fixtures", "inject.sh")
T0 = 1764450245
UPTIME0 = 1183942.37	# the fixtures' /proc/uptime
# firmware: the fixture's (the class majority) and an older one
FW = {"gpu": ("28.41.1000", "28.39.1002"), "roce": ("22.39.2048", "22.38.1002")}
OFED_NEW, OFED_OLD = "24.10-1.1.4", "24.07-0.6.1"
U16, U32, U64 = 65535, 4294967295, 1 << 64

KIND = {"gpu": "gpu-ndr8", "roce": "roce-pfc"}
FAULTS = {
	"gpu": ["drift", "accel", "reboot", "reload", "sat16", "sat32",
		"wrap64", "fwup", "fw-old", "driver", "hca-fewer", "mtu", "klog"],
	"roce": ["drift", "reboot", "fw-old", "mtu"],
}
# the port a fault is put on
PORT = {"gpu": ("mlx5_3", 1), "roce": ("mlx5_0", 1)}
TRAFFIC = re.compile(r"(data|packets|bytes|pause|cnp|ecn|requests|ch\d*_"
		     r"(events|poll|arm)|csum|cqes|xmit_wait)")


def sh(*args, cwd=None, env=None, out=None):
	r = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE,
			   stderr=subprocess.PIPE)
	if r.returncode:
		sys.exit("genfleet: %s failed: %s" % (" ".join(args),
			 r.stderr.decode(errors="replace").strip()[:500]))
	return r.stdout.decode()


def ident(seed, name, what):
	"""machine-id (32 hex) or boot_id (UUID form) of a node, from the seed"""
	h = hashlib.sha256(("%s:%s:%s" % (seed, name, what)).encode()).hexdigest()
	if what == "machine-id":
		return h[:32]
	return "%s-%s-4%s-8%s-%s" % (h[:8], h[8:12], h[13:16], h[17:20], h[20:32])


# A node's GUIDs, MACs and IPv4 addresses: the fixture's with the node's
# index j (< 10,000) in fixed-width fields, so every node has its own and
# a derived bundle gets them by same-length replacement.  (regex on the
# fixture's text, replacement) pairs; two GUID bytes per node, the IPv4
# addresses' last two octets 100-199.
def addr_subs(cls, j):
	hi, lo = j >> 8, j & 255
	a, b = 100 + j // 100, 100 + j % 100
	if cls == "gpu":
		return [(r"c003:00e1:", "c003:%04x:" % j),
			(r"c0:03:00:e1:", "c0:03:%02x:%02x:" % (hi, lo)),
			(r"10\.40\.12\.107\b", "10.40.%d.%d" % (a, b)),
			(r"192\.168\.(10[0-7])\.107\b", r"192.%d.\g<1>.%d" % (a, b))]
	return [(r"d203:004a:", "d203:%04x:" % j),
		(r"b8:3f:d2:4a:", "b8:3f:%02x:%02x:" % (hi, lo)),
		(r"ba3f:d2ff:fe4a:", "ba3f:%02xff:fe%02x:" % (hi, lo)),
		(r"10\.20\.1\.12\b", "10.20.%d.%d" % (a, b)),
		(r"192\.168\.(1[01])\.21\b", r"192.%d.\g<1>.%d" % (a, b)),
		(r"c0a8:(0[ab])15", r"c0%02x:\g<1>%02x" % (a, b))]


def addr_pairs(cls, j_from, j_to):
	"""same-length byte replacements from node j_from's addresses to j_to's"""
	out = []
	for (rx, f), (_, t) in zip(addr_subs(cls, j_from), addr_subs(cls, j_to)):
		if "\\g<1>" not in f:
			out.append((f.encode(), t.encode()))
			continue
		for g in (["10%d" % p for p in range(8)] if cls == "gpu" and "192" in rx
			  else ["10", "11"] if "192" in rx else ["0a", "0b"]):
			out.append((re.sub(r"\\g<1>", g, f).encode(),
				    re.sub(r"\\g<1>", g, t).encode()))
	for a, b in out:
		assert len(a) == len(b), (a, b)
	return out


def utc(t):
	import time
	return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class Node:
	"""one node of the fleet and, for a real node, its tree"""

	def __init__(self, idx, cls, seed):
		self.idx, self.cls = idx, cls
		self.name = "%s-%05d" % (cls, idx)
		self.machine_id = ident(seed, self.name, "machine-id")
		self.fault = None	# (kind, K)
		self.template = None	# derived: the Node it copies
		self.rows = []		# truth rows
		self.bundles = []	# (snap, time, boot_id, file)


# ------------------------------------------------------------------ the plan
def plan(args):
	rng = random.Random(args.seed)
	nodes = [Node(i, "roce" if i % 5 == 4 else "gpu", args.seed)
		 for i in range(args.nodes)]
	templates = {}
	for n in nodes:
		templates.setdefault(n.cls, n)
	free = {c: [n for n in nodes if n.cls == c and n is not templates[c]]
		for c in templates}
	for c in free:
		rng.shuffle(free[c])
	# deal the kinds: one of each, gpu and roce alternately, then again
	order, i = [], 0
	while i < args.faulty + 20:
		for c in ("gpu", "roce"):
			if i < len(FAULTS[c]) or i >= max(map(len, FAULTS.values())):
				order.append((c, FAULTS[c][i % len(FAULTS[c])]))
		i += 1
	for c, kind in order:
		if sum(1 for n in nodes if n.fault) >= args.faulty:
			break
		if not free[c]:
			continue
		n = free[c].pop()
		# an event inside the series: not the first snapshot (nothing
		# earlier to compare with)
		n.fault = (kind, rng.randrange(1, args.snapshots))
		n.rate = rng.choice((3, 6, 12, 24))	# errors per hour
	for n in nodes:
		if n.fault is None and n is not templates[n.cls]:
			n.template = templates[n.cls]
	return nodes, templates


# ---------------------------------------------------------- a real node's tree
def files_under(root, sub):
	out = []
	base = os.path.join(root, sub)
	for d, _, fs in os.walk(base):
		for f in fs:
			out.append(os.path.join(d, f))
	return sorted(out)


class Tree:
	"""a real node's tree and its counter model"""

	def __init__(self, node, tmp, seed):
		self.n, self.seed = node, seed
		self.rel = node.name
		self.root = os.path.join(tmp, node.name)
		sh("cp", "-a", os.path.join(tmp, "base-" + node.cls), self.root)
		self.boot = T0 - UPTIME0	# boot time (epoch s, float)
		self.reset = self.boot		# when the counters last reset
		self.was_reset = False
		self.boot_no = 0
		self.wrap_off = 0
		self.write("etc/hostname", node.name + "\n")
		self.write("proc/sys/kernel/hostname", node.name + "\n")
		self.write("etc/machine-id", node.machine_id + "\n")
		ib = os.path.join(self.root, "sys/class/infiniband")
		for d in sorted(os.listdir(ib)):
			self.write(os.path.realpath(os.path.join(ib, d, "node_desc")),
				   "%s %s\n" % (node.name, d))
		self.addresses(addr_subs(node.cls, node.idx))

	def addresses(self, subs):
		"""GUIDs, MACs and IPv4 addresses of this node in every text
		file of sys/ and rdma-collect/ (links not followed)"""
		rx = [(re.compile(a), b) for a, b in subs]
		for top in ("sys", "rdma-collect"):
			for d, _, fs in os.walk(os.path.join(self.root, top)):
				for f in fs:
					p = os.path.join(d, f)
					if os.path.islink(p):
						continue
					try:
						with open(p) as fh:
							t = fh.read()
					except (UnicodeDecodeError, OSError):
						continue
					u = t
					for r, b in rx:
						u = r.sub(b, u)
					if u != t:
						self.write(p, u)

	def path(self, p):
		return p if os.path.isabs(p) else os.path.join(self.root, p)

	def write(self, p, s):
		with open(self.path(p), "w") as f:
			f.write(s)

	def read(self, p):
		with open(self.path(p)) as f:
			return f.read()

	def port_dir(self, ibdev, port):
		return os.path.realpath(os.path.join(
			self.root, "sys/class/infiniband", ibdev, "ports", str(port)))

	def capture(self):
		"""the counters as the tree holds them now: the model's base"""
		self.sysfs = {}
		ib = os.path.join(self.root, "sys/class/infiniband")
		net = os.path.join(self.root, "sys/class/net")
		dirs = []
		for d in sorted(os.listdir(ib)):
			dev = os.path.realpath(os.path.join(ib, d))
			dirs.append(os.path.join(dev, "hw_counters"))
			for p in sorted(os.listdir(os.path.join(dev, "ports"))):
				dirs += [os.path.join(dev, "ports", p, "counters"),
					 os.path.join(dev, "ports", p, "hw_counters")]
		for d in sorted(os.listdir(net)):
			dirs.append(os.path.join(os.path.realpath(os.path.join(net, d)),
						 "statistics"))
		for d in dirs:
			if not os.path.isdir(d):
				continue
			for f in sorted(os.listdir(d)):
				p = os.path.join(d, f)
				try:
					self.sysfs[p] = int(self.read(p).strip())
				except ValueError:
					pass
		self.ethtool = {}
		eth = os.path.join(self.root, "rdma-collect/ethtool")
		for f in sorted(os.listdir(eth)) if os.path.isdir(eth) else []:
			p = os.path.join(eth, f)
			with open(p) as fh:
				self.ethtool[p] = json.load(fh)
		self.eth_base = {p: [list(s) for s in d.get("stats") or []]
				 for p, d in self.ethtool.items()}
		self.kmsg = self.read("rdma-collect/klog/kmsg.txt")

	def value(self, base, name, t):
		if base == 0:
			return 0
		if TRAFFIC.search(name):
			return int(base * (t - self.reset) / UPTIME0)
		return 0 if self.was_reset else base

	def counters(self, t, extra):
		"""write every counter for time t; extra: path -> value"""
		for p, b in self.sysfs.items():
			v = extra.get(p)
			if v is None:
				v = self.value(b, os.path.basename(p), t)
			self.write(p, "%d\n" % v)
		for p, d in self.ethtool.items():
			d["stats"] = [[k, self.value(b, k, t)]
				      for k, b in self.eth_base[p]]
			with open(p, "w") as fh:
				json.dump(d, fh)

	def boot_id(self):
		if self.boot_no == 0:
			return ident(self.seed, self.n.name, "boot_id")
		return ident(self.seed, self.n.name, "boot_id.%d" % self.boot_no)

	def clock(self, t):
		up = t - self.boot
		self.write("proc/uptime", "%.2f %.2f\n" % (up, up * 13.7))
		self.write("proc/sys/kernel/random/boot_id", self.boot_id() + "\n")

	def replace_all(self, files, old, new):
		for p in files:
			s = self.read(p)
			if old in s:
				self.write(p, s.replace(old, new))

	def fw_files(self):
		ib = os.path.join(self.root, "sys/class/infiniband")
		return ([os.path.realpath(os.path.join(ib, d, "fw_ver"))
			 for d in sorted(os.listdir(ib))] +
			files_under(self.root, "rdma-collect/verbs") +
			files_under(self.root, "rdma-collect/ethtool"))

	def inject(self, fault, arg=None):
		out = sh(INJECT, fault, self.root, *([arg] if arg else []))
		return [l.split("\t") for l in out.splitlines() if l.strip()]

	def drop_hca(self, bdf, ibdev, netdev, nums):
		"""the function at bdf is gone: its folder, every link to it, its
		stored forms and device nodes"""
		for d, dirs, fs in os.walk(os.path.join(self.root, "sys")):
			for f in fs + dirs:
				p = os.path.join(d, f)
				if os.path.islink(p) and bdf in os.readlink(p):
					os.unlink(p)
		for link in ("sys/class/infiniband/" + ibdev,
			     "sys/class/net/" + netdev):
			if os.path.lexists(self.path(link)):
				os.unlink(self.path(link))
		for d, dirs, _ in os.walk(os.path.join(self.root, "sys/devices")):
			if bdf in dirs:
				shutil.rmtree(os.path.join(d, bdf))
				dirs.remove(bdf)
		for d, _, fs in os.walk(os.path.join(self.root, "sys/class")):
			for f in fs:
				p = os.path.join(d, f)
				if os.path.islink(p) and not os.path.exists(p):
					os.unlink(p)
		for p in ("rdma-collect/verbs/%s.json" % ibdev,
			  "rdma-collect/ethtool/%s.json" % netdev,
			  "rdma-collect/dcb/%s.json" % netdev):
			if os.path.exists(self.path(p)):
				os.unlink(self.path(p))
		self.json_edit("rdma-collect/verbs/devices.json",
			       lambda d: d["devices"].remove(ibdev))
		gone = {"uverbs%d" % nums, "umad%d" % nums, "issm%d" % nums}
		self.json_edit("rdma-collect/devnodes.json", lambda d: d.__setitem__(
			"entries", [e for e in d["entries"] if e["name"] not in gone]))
		self.json_edit("rdma-collect/net/addresses.json", lambda d: d.__setitem__(
			slice(None), [a for a in d if a.get("ifname") != netdev]))
		# the boot's probe lines of a card that never came up
		k = self.read("rdma-collect/klog/kmsg.txt").split("\n")
		keep, skip = [], False
		for line in k:
			if line.startswith(" "):
				if not skip:
					keep.append(line)
				continue
			skip = bdf in line or (ibdev + ":") in line or (netdev + ":") in line
			if not skip:
				keep.append(line)
		self.write("rdma-collect/klog/kmsg.txt", "\n".join(keep))

	def json_edit(self, p, fn):
		with open(self.path(p)) as f:
			d = json.load(f)
		fn(d)
		with open(self.path(p), "w") as f:
			json.dump(d, f)


def truth(n, snap, event, comp, detail, check, need):
	n.rows.append((n.name, str(snap), event, comp, detail, check, need))


def series(times, fn):
	return [fn(i, t) for i, t in enumerate(times)]


def run_real(n, args, tmp, times, rc_dir):
	"""make the real node's tree and collect it at every snapshot"""
	tr = Tree(n, tmp, args.seed)
	kind, at = n.fault if n.fault else (None, 0)
	FW_NEW, FW_OLD = FW[n.cls]
	ibdev, port = PORT[n.cls]
	comp = "%s:%d|%s" % (ibdev, port, ibdev)
	pdir = tr.port_dir(ibdev, port)
	cnt = lambda name: os.path.join(pdir, "counters", name)
	hwc = lambda name: os.path.join(pdir, "hw_counters", name)
	S = len(times)
	hours = [(t - times[0]) / 3600.0 for t in times]
	late = {}	# counter path -> values per snapshot

	# static faults, before the counter model is captured
	if kind == "fw-old":
		tr.replace_all(tr.fw_files(), FW_NEW, FW_OLD)
		truth(n, "*", kind, "", "fw_ver %s (class: %s)" % (FW_OLD, FW_NEW),
		      "FW_VERSION_OUTLIER", "required")
	elif kind == "driver":
		mods = files_under(tr.root, "sys/module")
		tr.replace_all([p for p in mods if p.endswith("/version")],
			       OFED_NEW, OFED_OLD)
		truth(n, "*", kind, "", "mlx5_core %s (class: %s)" % (OFED_OLD, OFED_NEW),
		      "DRIVER_OUTLIER", "required")
	elif kind == "hca-fewer":
		tr.drop_hca("0000:c4:00.0", "mlx5_7", "ibp196s0", 7)
		truth(n, "*", kind, "mlx5_7", "devices 7 (class: 8)",
		      "HCA_COUNT_OUTLIER", "required")
		truth(n, "*", kind, "", "hca_functions 7 (class: 8)", "HCA_MISSING", "implied")
		truth(n, "*", kind, "", "NCCL_IB_HCA still names mlx5_7",
		      "NCCL_IB_HCA_MISMATCH", "implied")
	elif kind == "mtu":
		dev = "mlx5_6" if n.cls == "gpu" else "mlx5_1"
		for check, c, need in tr.inject("mtu-below-max", dev):
			truth(n, "*", kind, c, "", check, need)
		truth(n, "*", kind, "%s:1|%s" % (dev, dev), "active_mtu 1024",
		      "CONFIG_OUTLIER", "required")
	elif kind == "fwup":
		tr.replace_all(tr.fw_files(), FW_NEW, FW_OLD)
	tr.capture()

	# the counter series of the dynamic faults
	if kind == "drift":
		p = cnt("symbol_error") if n.cls == "gpu" else hwc("out_of_sequence")
		late[p] = series(times, lambda i, t: int(n.rate * hours[i]))
		name = os.path.basename(p)
		truth(n, 1, kind, comp, "%s %s (+%d/h)" % (name, ",".join(map(str, late[p])),
		      n.rate), "COUNTER_GROWING", "required")
		truth(n, 1, kind, comp, "", "COUNTER_OUTLIER", "implied")
		if name == "symbol_error":
			truth(n, 1, kind, comp, "", "SYMBOL_ERRORS", "implied")
		else:
			truth(n, 1, kind, comp, "", "DROPS_IN_FLIGHT", "implied")
	elif kind == "accel":
		p = cnt("port_rcv_errors")
		vals, v = [], 0
		for i in range(S):
			if i:
				dt = hours[i] - hours[i - 1]
				v += int(n.rate * dt * (8 if i == S - 1 else 1))
			vals.append(v)
		late[p] = vals
		truth(n, 1, kind, comp, "port_rcv_errors %s (+%d/h, then x8)" %
		      (",".join(map(str, vals)), n.rate), "COUNTER_GROWING", "required")
		truth(n, S - 1, kind, comp, "critical: accelerating",
		      "COUNTER_GROWING", "required")
		truth(n, 1, kind, comp, "", "PORT_RCV_ERRORS", "implied")
		truth(n, 1, kind, comp, "", "COUNTER_OUTLIER", "implied")
	elif kind == "sat16":
		p = cnt("symbol_error")
		late[p] = [U16] * S
		truth(n, "*", kind, comp, "symbol_error %s" % ",".join(map(str, late[p])),
		      "COUNTER_GROWING", "absent")
		truth(n, "*", kind, comp, "", "SYMBOL_ERRORS", "implied")
		truth(n, "*", kind, comp, "", "COUNTER_OUTLIER", "implied")
		truth(n, "*", kind, comp, "symbol_error at its 16-bit maximum",
		      "COUNTER_SATURATED", "required")
	elif kind == "sat32":
		p = cnt("port_xmit_wait")
		late[p] = [U32] * S
		truth(n, "*", kind, comp, "port_xmit_wait %s" % ",".join(map(str, late[p])),
		      "COUNTER_GROWING", "absent")
		truth(n, "*", kind, comp, "", "XMIT_WAIT_HIGH", "implied")
		truth(n, "*", kind, comp, "port_xmit_wait at its 32-bit maximum",
		      "COUNTER_SATURATED", "required")

	klog_rows = []
	for s, t in enumerate(times):
		extra = {p: v[s] for p, v in late.items()}
		if kind in ("reboot", "reload", "fwup") and s == at:
			if kind == "reboot":
				tr.boot = t - 3 * 3600	# up for three hours
				tr.boot_no += 1
				tr.write("rdma-collect/klog/kmsg.txt", tr.kmsg)
			tr.reset = t - 3 * 3600
			tr.was_reset = True
		if kind == "fwup" and s == at:
			tr.replace_all(tr.fw_files(), FW_OLD, FW_NEW)
			for p in tr.ethtool:
				with open(p) as fh:
					tr.ethtool[p] = json.load(fh)
		if kind == "wrap64":
			p = cnt("port_xmit_data")
			if s == 0:
				b = tr.sysfs[p]
				nat = lambda tt: int(b * (tt - tr.reset) / UPTIME0)
				# half an interval's traffic before the wrap
				tr.wrap_off = U64 - nat(times[at]) + (nat(times[at]) - nat(times[at - 1])) // 2
				late[p] = [(nat(tt) + tr.wrap_off) % U64 for tt in times]
			extra[p] = late[p][s]
		tr.clock(t)
		tr.counters(t, extra)
		if kind == "klog" and s == at:
			klog_rows = tr.inject("fw-reset", "mlx5_1")
		bid = tr.boot_id()
		env = dict(os.environ, SOURCE_DATE_EPOCH=str(t),
			   PATH=rc_dir + os.pathsep + os.environ.get("PATH", ""))
		# relative paths: the manifest records --root and -o
		outd = os.path.join(tmp, "out-" + n.name)
		os.makedirs(outd, exist_ok=True)
		f = sh("rdma-collect", "-q", "--root", tr.rel, "-o", "out-" + n.name,
		       cwd=tmp, env=env).strip()
		f = os.path.basename(f) if f else sorted(os.listdir(outd))[-1]
		os.rename(os.path.join(outd, f), os.path.join(args.out, "bundles", f))
		n.bundles.append((s, t, bid, f))

	# the events' truth, now that the times are known
	if kind == "reboot":
		truth(n, at, kind, "", "boot_id %s -> %s, uptime %d s" %
		      (ident(args.seed, n.name, "boot_id"), tr.boot_id(), 3 * 3600),
		      "COUNTER_GROWING", "absent")
	elif kind == "reload":
		truth(n, at, kind, "", "counters reset, same boot_id, 3 h before",
		      "COUNTER_GROWING", "absent")
	elif kind == "wrap64":
		truth(n, at, kind, comp, "port_xmit_data %s" % ",".join(map(str, late[cnt("port_xmit_data")])),
		      "COUNTER_GROWING", "absent")
	elif kind == "fwup":
		truth(n, at, kind, "", "fw_ver %s -> %s" % (FW_OLD, FW_NEW),
		      "CONFIG_CHANGED", "required")
		truth(n, at, kind, "", "counters reset (firmware reset), same boot_id",
		      "COUNTER_GROWING", "absent")
		if at > 0:
			truth(n, 0, kind, "", "fw_ver %s before snapshot %d" % (FW_OLD, at),
			      "FW_VERSION_OUTLIER", "implied")
	elif kind == "klog":
		truth(n, at, kind, "mlx5_1", "fw-reset kernel lines from snapshot %d" % at,
		      "NEW_KERNEL_EVENTS", "required")
		for check, c, need in klog_rows:
			truth(n, at, kind, c, "", check, need)
	shutil.rmtree(tr.root)
	return n


# ------------------------------------------------------------ derived nodes
def find_all(raw, pat):
	"""where bytes.replace() would replace pat in raw: non-overlapping,
	left to right"""
	out, i = [], raw.find(pat)
	while i >= 0:
		out.append(i)
		i = raw.find(pat, i + len(pat))
	return out


def derive(args, jobs):
	"""jobs: (node, snap, time, template file, template tar bytes).

	Every replacement is of the same length, so where the template's
	identity sits in a template bundle is found once per bundle and each
	derived node's bytes are written at those places: scanning the 4 MB
	tar for 14 strings per derived bundle held the GIL and made 2,200
	bundles a minute."""
	places = {}

	def where(tpl, tf, raw):
		key = (tpl.name, tf)
		if key not in places:
			pats = [a for a, _ in addr_pairs(tpl.cls, tpl.idx, tpl.idx)]
			pats += [tpl.name.encode(), tpl.machine_id.encode(),
				 ident(args.seed, tpl.name, "boot_id").encode()]
			places[key] = [find_all(raw, a) for a in pats]
		return places[key]

	def one(job):
		n, s, t, tf, raw = job
		tpl = n.template
		news = [b for _, b in addr_pairs(n.cls, tpl.idx, n.idx)]
		news += [n.name.encode(), n.machine_id.encode(),
			 ident(args.seed, n.name, "boot_id").encode()]
		d = bytearray(raw)
		for b, at in zip(news, where(tpl, tf, raw)):
			for i in at:
				d[i:i + len(b)] = b
		f = tf.replace(tpl.name, n.name, 1)
		subprocess.run(["zstd", "-q", "-f", "-%d" % args.level, "-o",
				os.path.join(args.out, "bundles", f)], input=d, check=True)
		return n, s, t, f
	with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
		for n, s, t, f in ex.map(one, jobs):
			n.bundles.append((s, t, ident(args.seed, n.name, "boot_id"), f))


def main():
	ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
	ap.add_argument("build", nargs="?", default="build",
			help="the build folder with rdma-collect (default build)")
	ap.add_argument("-o", "--out", required=True)
	ap.add_argument("--nodes", type=int, default=30)
	ap.add_argument("--snapshots", type=int, default=4)
	ap.add_argument("--seed", default="1")
	ap.add_argument("--faulty", type=int, default=None,
			help="faulty nodes (default: max(17, N/100), at most 2N/3)")
	ap.add_argument("--interval-h", type=float, default=24.0)
	ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
	ap.add_argument("--level", type=int, default=3, help="zstd level of derived bundles")
	ap.add_argument("--plan", action="store_true",
			help="print the plan (node, class, fault, snapshot, rate) and stop")
	args = ap.parse_args()
	if args.nodes < 2 or args.snapshots < 2 or args.nodes > 10000:
		sys.exit("genfleet: need 2-10000 --nodes and --snapshots >= 2")
	if args.faulty is None:
		args.faulty = min(args.nodes * 2 // 3, max(17, args.nodes // 100))
	if args.plan:
		nodes, _ = plan(args)
		for n in nodes:
			print("%s\t%s\t%s" % (n.name, n.cls, "%s\t%d\t%d" % (
				n.fault[0], n.fault[1], n.rate) if n.fault else
				"derived:" + n.template.name if n.template else "template"))
		return
	rc_dir = os.path.abspath(args.build)
	if not os.access(os.path.join(rc_dir, "rdma-collect"), os.X_OK):
		sys.exit("genfleet: %s/rdma-collect is missing" % rc_dir)
	os.environ["LC_ALL"] = "C"
	args.out = os.path.abspath(args.out)
	if os.path.exists(os.path.join(args.out, "bundles")):
		shutil.rmtree(os.path.join(args.out, "bundles"))
	os.makedirs(os.path.join(args.out, "bundles"))
	times = [T0 + int(s * args.interval_h * 3600) for s in range(args.snapshots)]
	nodes, templates = plan(args)

	tmp = tempfile.mkdtemp(prefix="rdma-genfleet.", dir=os.environ.get("TMPDIR"))
	try:
		for c in sorted(templates):
			sh(MKNODE, KIND[c], os.path.join(tmp, "base-" + c))
		real = [n for n in nodes if n.template is None]
		with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
			list(ex.map(lambda n: run_real(n, args, tmp, times, rc_dir), real))
		raw = {}
		for tpl in templates.values():
			for s, t, bid, f in tpl.bundles:
				raw[(tpl.name, s)] = (t, f, sh_bytes(
					["zstd", "-q", "-dc", os.path.join(args.out, "bundles", f)]))
		jobs = []
		for n in nodes:
			if n.template:
				for s in range(args.snapshots):
					t, f, b = raw[(n.template.name, s)]
					jobs.append((n, s, t, f, b))
		derive(args, jobs)
	finally:
		shutil.rmtree(tmp)

	with open(os.path.join(args.out, "truth.tsv"), "w") as f:
		f.write("# node\tsnap\tevent\tcomponent\tdetail\tcheck\tneed\n")
		for n in nodes:
			for r in n.rows:
				f.write("\t".join(r) + "\n")
	with open(os.path.join(args.out, "bundles.tsv"), "w") as f:
		f.write("# node\tclass\tsnap\tcollected_at\tboot_id\torigin\tfile\n")
		for n in nodes:
			origin = "derived:" + n.template.name if n.template else "real"
			for s, t, bid, fn in sorted(n.bundles):
				f.write("%s\t%s\t%d\t%s\t%s\t%s\t%s\n" % (n.name, n.cls, s,
					utc(t), bid, origin, fn))
	nreal = sum(len(n.bundles) for n in nodes if not n.template)
	nall = sum(len(n.bundles) for n in nodes)
	print("genfleet: %d nodes x %d snapshots: %d bundles (%d real collections, "
	      "%d derived), %d faulty nodes, %d truth rows in %s" %
	      (len(nodes), args.snapshots, nall, nreal, nall - nreal,
	       sum(1 for n in nodes if n.fault), sum(len(n.rows) for n in nodes),
	       args.out))


def sh_bytes(argv):
	return subprocess.run(argv, stdout=subprocess.PIPE, check=True).stdout


if __name__ == "__main__":
	main()

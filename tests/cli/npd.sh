# npd: contrib/kubernetes/, `rdma-analyze check` as a custom plugin of
# Kubernetes' node-problem-detector (NPD is not a Debian package).  The
# plugin configuration parses and has what NPD's
# pkg/custompluginmonitor/types/config.go requires (plugin "custom",
# durations, a default condition per permanent rule, rule timeouts within
# the global one); the manifest parses (python3-yaml), its ConfigMap holds
# that configuration and its DaemonSet mounts read-only, unprivileged.
# Then each rule of the configuration is run as NPD's plugin.go runs it
# (its path and args, here with --root TREE added; killed past the timeout;
# standard output read up to 4 KiB, trimmed, cut at max_output_length; exit
# 0 OK, 1 NonOK, anything else Unknown) on fixture trees: healthy, warning,
# critical, no collector, a hanging collector, a message cut.
cd "$T" || exit 1
K=$TOP/contrib/kubernetes
mknode gpu-ndr8 good >/dev/null 2>&1 || fail "npd: building the fixture node"
mkdir tmp
export TMPDIR=$T/tmp

# --- the configuration, as NPD reads and validates it ---
check "config: NPD's custom plugin monitor fields" python3 -c '
import json, re, sys
c = json.load(open(sys.argv[1]))
dur = lambda s: re.fullmatch(r"[0-9]+(s|m|h)", s) and \
	int(s[:-1]) * {"s": 1, "m": 60, "h": 3600}[s[-1]]
g = c["pluginConfig"]
assert c["plugin"] == "custom" and c["source"], c
assert dur(g["invoke_interval"]) and dur(g["timeout"]), g
assert g["max_output_length"] == 200 and g["concurrency"] >= 1, g
conds = {d["type"]: d for d in c["conditions"]}
assert conds["RDMAProblem"]["reason"] and conds["RDMAProblem"]["message"]
types = sorted(r["type"] for r in c["rules"])
assert types == ["permanent", "temporary"], types
for r in c["rules"]:
	assert r["reason"] and r["path"].startswith("/") and r["args"], r
	assert dur(r["timeout"]) <= dur(g["timeout"]), r
	if r["type"] == "permanent":
		assert r["condition"] in conds, r
	t = r["args"][r["args"].index("-t") + 1]
	assert int(t) < dur(r["timeout"]), "check must end before NPD kills it"
' "$K/rdma-check.json"

# python3-yaml (tests/install-deps.sh): Debian's python3, or the first
PY=
for p in /usr/bin/python3 python3; do
	"$p" -c 'import yaml' >/dev/null 2>&1 && PY=$p && break
done
if [ -z "$PY" ]; then
	skip "manifest" "python3-yaml is not installed (tests/install-deps.sh installs it)"
else
check "manifest: parses; the ConfigMap holds rdma-check.json" "$PY" -c '
import json, sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
kinds = [d["kind"] for d in docs]
assert kinds == ["ServiceAccount", "ClusterRoleBinding", "ConfigMap", "DaemonSet"], kinds
cm = docs[2]["data"]["rdma-check.json"]
assert json.loads(cm) == json.load(open(sys.argv[2])), "ConfigMap != rdma-check.json"
' "$K/rdma-npd.yaml" "$K/rdma-check.json"

check "manifest: the DaemonSet runs the config, unprivileged, mounts read-only" "$PY" -c '
import json, sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
ds = docs[3]["spec"]["template"]["spec"]
c = ds["containers"][0]
assert "--config.custom-plugin-monitor=/config/rdma-check.json" in c["command"]
assert ds["hostNetwork"] is True and ds["serviceAccountName"] == docs[0]["metadata"]["name"]
sc = c["securityContext"]
assert sc["privileged"] is False and sc["readOnlyRootFilesystem"] is True, sc
assert sc["capabilities"]["add"] == ["SYSLOG"], sc
vols = {v["name"]: v for v in ds["volumes"]}
mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
for path in ("/sys", "/dev/infiniband", "/etc/machine-id", "/etc/security"):
	m = mounts[path]
	assert m.get("readOnly") is True, m
	assert vols[m["name"]]["hostPath"]["path"] == path, m
for m in c["volumeMounts"]:
	assert m.get("readOnly") or "emptyDir" in vols[m["name"]], m
assert {t["effect"] for t in ds["tolerations"]} == {"NoSchedule", "NoExecute"}
' "$K/rdma-npd.yaml"
fi

# --- the rules, run as NPD runs them ---
# npd RULE TREE [CHECK OPTIONS]: run the configuration's rule of that type
# (permanent, temporary) as plugin.go does, the wrapper of contrib/ for
# its path; prints "STATUS MESSAGE"
cat >npd.py <<'EOF'
import json, os, subprocess, sys
conf, wrapper, rtype, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
c = json.load(open(conf))
g = c["pluginConfig"]
rule = [r for r in c["rules"] if r["type"] == rtype][0]
secs = lambda s: int(s[:-1]) * {"s": 1, "m": 60, "h": 3600}[s[-1]]
timeout = min(secs(rule["timeout"]), secs(g["timeout"]))
timeout = int(os.environ.get("NPD_TIMEOUT", timeout))
maxlen = int(os.environ.get("NPD_MAX", g["max_output_length"]))
p = subprocess.Popen([wrapper] + rule["args"] + extra, stdin=subprocess.DEVNULL,
		     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
		     start_new_session=True)
try:
	out, err = p.communicate(timeout=timeout)
	killed = False
except subprocess.TimeoutExpired:
	os.killpg(p.pid, 9)
	out, err = p.communicate()
	killed = True
out = out[:4096].decode("utf-8", "replace").strip()
if killed:
	out = "Timeout when running plugin"
out = out[:maxlen]
st = {0: "OK", 1: "NonOK"}.get(p.returncode, "Unknown")
print(st, out)
EOF
npd() {
	local r=$1 tree=$2
	shift 2
	RDMA_ANALYZE=$RA python3 npd.py "$K/rdma-check.json" "$K/rdma-npd-check" \
		"$r" --root "$T/$tree" "$@" 2>>npd.err
}

check_eq "healthy: condition OK, no message" "$(npd permanent good)" "OK "
check_eq "healthy: no event" "$(npd temporary good)" "OK "
check_eq "healthy: no scratch folder left" "$(ls -A tmp)" ""

cp -a good bad
"$FIXTURES/inject.sh" port-down bad mlx5_3 >/dev/null &&
	"$FIXTURES/inject.sh" pcie-degraded bad mlx5_1 >/dev/null ||
	fail "npd: injecting the faults"
s=$(date +%s%N)
got=$(npd permanent bad)
ms=$((($(date +%s%N) - s) / 1000000))
echo "# the permanent rule on gpu-ndr8 (8 HCAs) with two faults: $ms ms"
check_eq "critical: condition NonOK with the reason" "$got" \
	"NonOK rdma: PCIE_LINK_DEGRADED 0000:24:00.0; PORT_DOWN mlx5_3:1"
check_eq "critical: no warning event (the condition says it)" "$(npd temporary bad)" "OK "

cp -a good warn
"$FIXTURES/inject.sh" mtu-below-max warn mlx5_2 >/dev/null || fail "npd: mtu-below-max"
check_eq "warning: the condition stays OK" "$(npd permanent warn | cut -c1-3)" "OK "
check_eq "warning: an event with the reason" "$(npd temporary warn | cut -c1-30)" \
	"NonOK rdma: MTU_BELOW_MAX mlx5"

check_eq "no collector: Unknown with check's reason" \
	"$(npd permanent good --collector "$T/none")" \
	"Unknown rdma: check failed: rdma-collect not found: $T/none"
check_eq "no collector: no warning event" \
	"$(npd temporary good --collector "$T/none")" "OK "
got=$(RDMA_ANALYZE=$T/none python3 npd.py "$K/rdma-check.json" "$K/rdma-npd-check" \
	permanent 2>/dev/null)
check_eq "no rdma-analyze: Unknown" "$got" \
	"Unknown rdma: check exit status 127 (rdma-analyze: $T/none)"

# a collector that hangs: check's --timeout (-t 45 in the configuration,
# a later --timeout 2 here) ends it before NPD's timeout, with its reason
printf '#!/bin/sh\nexec sleep 60\n' >hang.sh
chmod +x hang.sh
s=$(date +%s%N)
got=$(NPD_TIMEOUT=10 RDMA_ANALYZE=$RA python3 npd.py "$K/rdma-check.json" \
	"$K/rdma-npd-check" permanent --timeout 2 --collector "$T/hang.sh" 2>/dev/null)
ms=$((($(date +%s%N) - s) / 1000000))
echo "# a hanging collector, --timeout 2: $ms ms"
echo "# $got"
check "hanging collector: Unknown, before NPD's timeout" \
	sh -c 'case $1 in "Unknown rdma: check failed: "*) exit 0;; esac; exit 1' - "$got"
check "hanging collector: within 2 s plus 2" test "$ms" -lt 4000

# --- the message within max_output_length: the wrapper's cut, with ... ---
cp -a good worse
for i in 0 1 2 3 4 5 6 7; do
	"$FIXTURES/inject.sh" port-down worse mlx5_$i >/dev/null
	"$FIXTURES/inject.sh" pcie-degraded worse mlx5_$i >/dev/null
done
got=$(npd permanent worse)
echo "# $got"
check "long reason: NonOK, under 200 bytes" \
	sh -c 'case $1 in "NonOK rdma: PCIE_LINK_DEGRADED"*) test ${#1} -le 206;; *) exit 1;; esac' - "$got"
RDMA_ANALYZE=$RA "$K/rdma-npd-check" -m 40 condition --root "$T/worse" >cut.out 2>/dev/null </dev/null
check_eq "-m 40: exit 1" "$?" 1
check_eq "-m 40: one line of 40 bytes ending in ..." \
	"$(wc -l <cut.out):$(tr -d '\n' <cut.out | wc -c):$(tail -c 4 cut.out)" "1:40:..."
check_eq "-m 40: the reason's start" "$(head -c 37 cut.out)" "$("$RA" check --root worse --reason | head -c 37)"
# NPD's own cut, at a max_output_length under the wrapper's -m
got=$(NPD_MAX=26 npd permanent worse)
check_eq "NPD's cut at max_output_length 26" "$got" "NonOK rdma: PCIE_LINK_DEGRADED 0"

check_eq "usage: no mode is Unknown (2)" \
	"$("$K/rdma-npd-check" </dev/null >/dev/null 2>&1; echo $?)" 2
check_eq "stderr of the runs: empty" "$(cat npd.err)" ""

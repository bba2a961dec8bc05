# The commands source (--commands): fake tools named like the allowlisted
# ones in $T/bin.  What is stored, exit codes and a timeout, argv exactly
# as the allowlist says, the reduced environment, and that nothing outside
# the allowlist or outside --command-path is ever run.

B=$T/bin
mkdir -p "$B" "$T/rel" "$T/decoy" "$T/out" "$T/markers"

# a fixture class folder for the per-device commands
# (RDMA_COLLECT_TEST_IBCLASS; the live node here has no RDMA device)
S=$T/sys
for spec in mlx5_0:02.0:b1 mlx5_1:03.0:b2; do
	dev=${spec%%:*}
	rest=${spec#*:}
	port=${rest%%:*}
	bus=${rest#*:}
	pci=devices/pci0000:00/0000:00:$port/0000:$bus:00.0
	mkdir -p "$S/$pci/infiniband/$dev" "$S/class/infiniband"
	ln -s "../../../0000:$bus:00.0" "$S/$pci/infiniband/$dev/device"
	ln -s "../../$pci/infiniband/$dev" "$S/class/infiniband/$dev"
done
# a software device without a PCI function: no per-device command
mkdir -p "$S/devices/virtual/infiniband/rxe0"
ln -s ../../devices/virtual/infiniband/rxe0 "$S/class/infiniband/rxe0"

# the fakes: the environment is PATH=$B and LC_ALL=C only, so they name
# every other program by its full path
cat >"$B/ofed_info" <<'EOF'
#!/bin/sh
echo "MLNX_OFED_LINUX-24.10-1.1.4.0:"
echo "args: $*"
echo "env: PATH=$PATH LC_ALL=$LC_ALL HOME=${HOME-unset} USER=${USER-unset}"
if read -r line; then echo "stdin: $line"; else echo "stdin: eof"; fi
echo "ofed_info warning" >&2
EOF
cat >"$B/nvidia-smi" <<'EOF'
#!/bin/sh
echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." >&2
exit 3
EOF
cat >"$B/mlxlink" <<'EOF'
#!/bin/sh
echo "mlxlink called with: $*"
EOF
cat >"$B/mlxconfig" <<'EOF'
#!/bin/sh
echo "mlxconfig called with: $*"
EOF
cat >"$B/mst" <<'EOF'
#!/bin/sh
/usr/bin/yes mst-status-filler-line | /usr/bin/head -c 100000
echo
echo END-OF-MST
EOF
# sleeps past its deadline, with a child of its own in the same group
cat >"$B/mlxfwmanager" <<'EOF'
#!/bin/sh
echo "querying..."
/bin/sleep 3601 &
exec /bin/sleep 3602
EOF
cat >"$B/rm" <<EOF
#!/bin/sh
: >"$T/markers/rm"
EOF
cat >"$B/sh" <<EOF
#!/bin/sh
: >"$T/markers/sh"
EOF
cat >"$T/decoy/lldpcli" <<EOF
#!/bin/sh
: >"$T/markers/lldpcli"
EOF
cat >"$T/rel/rdma" <<EOF
#!/bin/sh
: >"$T/markers/rdma"
EOF
chmod +x "$B"/* "$T/decoy/lldpcli" "$T/rel/rdma"

cd "$T" || exit 1
t0=$(date +%s%N)
RDMA_COLLECT_TEST_IBCLASS=$S/class/infiniband PATH="$T/decoy:$PATH" \
	"$RC" -q --only commands --commands --command-path "rel:$B" \
	--timeout 4 --max-file 4k -o "$T/out" >"$T/out.txt" 2>"$T/err.txt"
rc=$?
wall=$((($(date +%s%N) - t0) / 1000000))
echo "# commands run: ${wall} ms (--timeout 4; mlxfwmanager sleeps past it)"
b=$(cat "$T/out.txt")
check_eq "commands: exits 0" "$rc" 0
check "commands: bundle written" test -f "$b"

get() { tar --zstd -xOf "$b" "rdma-collect/commands/$1"; }
mpy() {
	manifest "$b" | python3 -c "
import json, sys
m = json.load(sys.stdin)
S = {s['name']: s for s in m['sources']}
c = S['commands']
$1"
}

check_eq "commands: status partial (one timed out)" \
	"$(src_status "$b" commands)" partial
check "commands: the reason names the command that timed out" \
	mpy "assert 'mlxfwmanager timed out' in c['reason'], c['reason']"

# stored output
check_eq "ofed_info: stdout" "$(get ofed_info/stdout)" "MLNX_OFED_LINUX-24.10-1.1.4.0:
args: -s
env: PATH=$B LC_ALL=C HOME=unset USER=unset
stdin: eof"
check_eq "ofed_info: stderr" "$(get ofed_info/stderr)" "ofed_info warning"
check_eq "ofed_info: status.json" "$(get ofed_info/status.json | python3 -c '
import json, sys
s = json.load(sys.stdin)
print(s["exit"], s["signal"], s["timed_out"], s["error"], type(s["duration_ms"]).__name__)')" \
	"0 None False None int"
check_eq "nvidia-smi -q: exit 3 is recorded" \
	"$(get nvidia-smi-q/status.json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["exit"], s["timed_out"])')" \
	"3 False"
check "nvidia-smi -q: stderr kept" \
	sh -c "tar --zstd -xOf '$b' rdma-collect/commands/nvidia-smi-q/stderr | grep -q 'NVIDIA-SMI has failed'"
check_eq "mlxlink-mlx5_0: stdout shows the exact arguments" \
	"$(get mlxlink-mlx5_0/stdout)" "mlxlink called with: -d mlx5_0 -m -e -c"

# the timeout
check_eq "mlxfwmanager: timed out, killed" \
	"$(get mlxfwmanager/status.json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["exit"], s["signal"], s["timed_out"])')" \
	"None SIGKILL True"
check_eq "mlxfwmanager: output before the kill kept" \
	"$(get mlxfwmanager/stdout)" "querying..."
check "the run ends within its --timeout (${wall} ms)" test "$wall" -lt 6000
check "the timed-out command's whole process group is gone" \
	sh -c "! pgrep -f 'sleep 360[12]'"

# the cap
check_eq "mst status -v: stdout capped at --max-file" \
	"$(get mst-status/stdout | wc -c)" 4096
check_eq "mst status -v: the tail is kept" "$(get mst-status/stdout | tail -1)" \
	END-OF-MST
check "mst status -v: listed as truncated" \
	mpy "assert 'rdma-collect/commands/mst-status/stdout' in c['truncated'], c['truncated']"

# argv.json: exactly the allowlist, nothing else
check "argv.json of every command is the allowlist's" python3 -c "
import json, subprocess, sys
b, B = sys.argv[1], sys.argv[2]
want = {
    'ofed_info': ['ofed_info', '-s'],
    'mst-status': ['mst', 'status', '-v'],
    'nvidia-smi-topo': ['nvidia-smi', 'topo', '-m'],
    'nvidia-smi-q': ['nvidia-smi', '-q'],
    'mlxlink-mlx5_0': ['mlxlink', '-d', 'mlx5_0', '-m', '-e', '-c'],
    'mlxlink-mlx5_1': ['mlxlink', '-d', 'mlx5_1', '-m', '-e', '-c'],
    'mlxconfig-0000:b1:00.0': ['mlxconfig', '-d', '0000:b1:00.0', '-e', 'q'],
    'mlxconfig-0000:b2:00.0': ['mlxconfig', '-d', '0000:b2:00.0', '-e', 'q'],
    'mlxfwmanager': ['mlxfwmanager', '--query'],
}
names = subprocess.run(['tar', '--zstd', '-tf', b], capture_output=True,
                       text=True, check=True).stdout.split()
got = {}
for n in names:
    if n.startswith('rdma-collect/commands/') and n.endswith('/argv.json'):
        a = json.loads(subprocess.run(['tar', '--zstd', '-xOf', b, n],
                       capture_output=True, check=True).stdout)
        assert a[0] == B + '/' + a[0].rsplit('/', 1)[1], a
        a[0] = a[0].rsplit('/', 1)[1]
        got[n.split('/')[2]] = a
assert got == want, (got, want)
assert not [a for a in got.values() if '--pc' in a]
" "$b" "$B"
check_eq "no command for a device without a PCI function (rxe0)" \
	"$(tar --zstd -tf "$b" | grep -c rxe0)" 0

# never run: outside the allowlist, outside --command-path, relative dirs
check_eq "nothing outside the allowlist ran (rm, sh in the folder)" \
	"$(ls "$T/markers")" ""
check_eq "lldpcli on PATH but not in --command-path: not installed" \
	"$(mpy "print(c['notes']['lldpcli-neighbors'])")" "not installed"
check_eq "rdma in a relative --command-path folder: not installed" \
	"$(mpy "print(c['notes']['rdma-link'])")" "not installed"
check_eq "ibdev2netdev: not installed" \
	"$(mpy "print(c['notes']['ibdev2netdev'])")" "not installed"

# no tool at all; no --commands
mkdir -p "$T/empty" "$T/out2" "$T/out3"
"$RC" -q --only commands --commands --command-path "$T/empty" \
	-o "$T/out2" >"$T/out2.txt" 2>&1
b=$(cat "$T/out2.txt")
check_eq "no tool installed: absent" "$(src_status "$b" commands)" absent
check "no tool installed: the reason says so" \
	mpy "assert 'none of the allowlisted commands' in c['reason'], c['reason']"
"$RC" -q --only commands --command-path "$B" -o "$T/out3" >"$T/out3.txt" 2>&1
b=$(cat "$T/out3.txt")
check_eq "without --commands: absent" "$(src_status "$b" commands)" absent
check_eq "without --commands: nothing ran" \
	"$(tar --zstd -tf "$b" | grep -c rdma-collect/commands)" 0

# under --root: the stored output is copied, nothing is run
mkdir -p "$T/root/rdma-collect/commands/ofed_info" "$T/root/proc/sys/kernel" \
	"$T/out4" "$T/out5" "$T/root2/proc"
echo stored-ofed >"$T/root/rdma-collect/commands/ofed_info/stdout"
echo rootnode >"$T/root/proc/sys/kernel/hostname"
"$RC" -q --root "$T/root" --only commands --commands --command-path "$B" \
	-o "$T/out4" >"$T/out4.txt" 2>&1
b=$(cat "$T/out4.txt")
check_eq "--root: stored output copied" "$(get ofed_info/stdout)" stored-ofed
check_eq "--root: status ok" "$(src_status "$b" commands)" ok
check_eq "--root: nothing ran" \
	"$(tar --zstd -tf "$b" | grep -c 'commands/.*/status.json')" 0
"$RC" -q --root "$T/root2" --only commands --commands --command-path "$B" \
	-o "$T/out5" >"$T/out5.txt" 2>&1
b=$(cat "$T/out5.txt")
check_eq "--root without stored output: absent" \
	"$(src_status "$b" commands)" absent

# tests/cli/import-sos.sh: a real sos report of this machine, made here
# (Debian's sosreport), read by rdma-analyze: it loads, and the report says
# what this machine has -- its hostname, its kernel, its RDMA devices (on
# the test machines: none).
cd "$T" || exit 1
if ! command -v sos >/dev/null 2>&1; then
	skip "sos report of this machine" "sos is not installed (tests/install-deps.sh)"
elif [ "$(id -u)" != 0 ]; then
	skip "sos report of this machine" "sos report needs root"
else
	mkdir sos
	# the plugins rdma-analyze reads, and dbus for the machine-id
	sos report --batch --quiet --tmp-dir "$T/sos" \
		-o kernel,pci,networking,infiniband,memory,process,host,date,pam,dbus \
		>sos.out 2>&1
	A=$(ls sos/sosreport-*.tar.xz 2>/dev/null | head -1)
	if [ -z "$A" ]; then
		fail "sos report of this machine"
		sed 's/^/#   /' sos.out | tail -5
	else
		ok "sos report of this machine: $(basename "$A")"
		"$RA" load -q --db s.db "$A" 2>load.err
		check_eq "it loads (exit 0, nothing on stderr)" "$? $(cat load.err)" "0 "
		check_eq "the kind is sos" "$(sqlite3 s.db 'SELECT kind FROM imports')" sos
		check_eq "hostname as uname says" \
			"$(sqlite3 s.db 'SELECT hostname FROM bundles')" "$(uname -n)"
		check_eq "kernel as uname says" \
			"$(sqlite3 s.db 'SELECT kernel_release FROM bundles')" "$(uname -r)"
		check_eq "machine-id as /etc/machine-id says" \
			"$(sqlite3 s.db 'SELECT machine_id FROM bundles')" \
			"$(cat /etc/machine-id 2>/dev/null)"
		check_eq "RDMA devices as /sys/class/infiniband lists them" \
			"$(sqlite3 s.db 'SELECT ibdev FROM devices ORDER BY ibdev' | tr '\n' ' ')" \
			"$(ls /sys/class/infiniband 2>/dev/null | sort | tr '\n' ' ')"
		"$RA" report --db s.db >rep.txt 2>&1
		rc=$?
		if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
			check_eq "no RDMA here: nothing at warning or above (exit 0)" "$rc" 0
		fi
		check "the report names the node" grep -q "^== $(uname -n): " rep.txt
		check "what the sos report lacks is skipped with its reason" \
			grep -q 'not in this sos report' rep.txt
		# rdma-collect of the same machine: one node, two snapshots
		mkdir rc
		if "$RC" -q -o rc >/dev/null 2>&1; then
			"$RA" load -q --db s.db rc/*.rdma.tar.zst
			check_eq "a bundle of this machine is the same node" \
				"$(sqlite3 s.db 'SELECT count(*) FROM nodes')" 1
			check "history of the node shows both" sh -c \
				'"$RA" history --db s.db "$(uname -n)" --json | python3 -c "
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if len(d) == 1 and len(d[0][\"snapshots\"]) == 2 else 1)"'
		else
			skip "a bundle of this machine" "rdma-collect failed here"
		fi
	fi
fi

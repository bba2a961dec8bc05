# tests/ibsim/fabric.sh: a simulated InfiniBand fabric for tests.  Source it.
#
# ibsim (Debian ibsim-utils) simulates the switches and HCAs of a topology
# file; LD_PRELOAD of libumad2sim.so sends every libibumad client of a
# process (opensm, the infiniband-diags tools, rdma-collect) to it instead
# of /dev/infiniband.  One fabric per FAB_DIR; fabrics run side by side when
# each has its own FAB_SOCK (ibsim's abstract socket name).
#
#   fab_have || skip "..."            # what is missing, in $FAB_MISSING
#   fab_start DIR topo/fat.topo       # ibsim up, console ready
#   fab_sm_once node001               # opensm once: LIDs and LFTs, then exits
#   fab_sm_start node001              # a resident SM (sminfo needs one)
#   fab_run node003 iblinkinfo        # any client, attached at that node
#   fab_cmd 'Unlink "leaf1"[3]'       # ibsim console; prints its answer
#   fab_stop                          # SM, then ibsim, by PID; scratch removed
#
# Every client runs under timeout (with no ibsim on the socket a client
# retries for ever) in FAB_DIR/cwd (the shim leaves sys-<pid>/ folders).
# ibsim has 10 client slots and a client killed by a signal keeps its slot:
# fab_reap frees them.

FAB_SHIM=${FAB_SHIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
FAB_TOOLS="ibsim opensm ibnetdiscover iblinkinfo perfquery ibroute sminfo ibtracert smpquery"

fab_have() {
	local t
	FAB_MISSING=
	for t in $FAB_TOOLS; do
		command -v "$t" >/dev/null 2>&1 || FAB_MISSING="$FAB_MISSING $t"
	done
	[ -r "$FAB_SHIM" ] || FAB_MISSING="$FAB_MISSING $FAB_SHIM"
	FAB_MISSING=${FAB_MISSING# }
	[ -z "$FAB_MISSING" ]
}

# fab_start DIR TOPO: start ibsim; ready when its control socket is bound
# (the "sim>" prompt comes before that, so it proves nothing)
fab_start() {
	local i
	FAB_DIR=$1
	export FAB_DIR
	export IBSIM_SOCKNAME=${FAB_SOCK:-rc$$x${RANDOM}}
	mkdir -p "$FAB_DIR/cwd" "$FAB_DIR/osm"
	rm -f "$FAB_DIR/con"
	mkfifo "$FAB_DIR/con" || return 1
	# the console FIFO is opened read-write: ibsim never sees EOF on it
	# (EOF makes it spin) and writers never block
	ibsim -s "$2" <>"$FAB_DIR/con" >"$FAB_DIR/ibsim.out" 2>"$FAB_DIR/ibsim.err" &
	echo $! >"$FAB_DIR/ibsim.pid"
	for i in $(seq 1 200); do
		kill -0 "$(cat "$FAB_DIR/ibsim.pid")" 2>/dev/null || break
		grep -qa "@$IBSIM_SOCKNAME:ctl@" /proc/net/unix && return 0
		sleep 0.05
	done
	echo "fab_start: ibsim did not come up:" >&2
	cat "$FAB_DIR/ibsim.err" >&2
	return 1
}

# fab_cmd CMD: one console command; waits for a marker echoed after it
fab_cmd() {
	local mark="#fab$$.$RANDOM" from i
	from=$(stat -c %s "$FAB_DIR/ibsim.out")
	printf '%s\n%s\n' "$1" "$mark" >"$FAB_DIR/con"
	for i in $(seq 1 200); do
		tail -c +$((from + 1)) "$FAB_DIR/ibsim.out" | grep -q -- "$mark" && break
		sleep 0.05
	done
	tail -c +$((from + 1)) "$FAB_DIR/ibsim.out" |
		sed -e "s/$mark.*//" -e 's/^sim> //' -e '/^$/d'
}

# fab_run NODE CMD...: a libibumad client attached at NODE (its nodeid)
fab_run() {
	local node=$1
	shift
	(cd "$FAB_DIR/cwd" && SIM_HOST=$node LD_PRELOAD=$FAB_SHIM \
		timeout -k 2 "${FAB_TIMEOUT:-30}" "$@")
}

# fab_sm_once [NODE]: opensm sweeps once (LIDs, LFTs) and exits
fab_sm_once() {
	(cd "$FAB_DIR/cwd" && SIM_HOST=${1:-node001} LD_PRELOAD=$FAB_SHIM \
		OSM_TMP_DIR="$FAB_DIR/osm" OSM_CACHE_DIR="$FAB_DIR/osm" \
		timeout -k 2 "${FAB_SM_TIMEOUT:-60}" opensm --once -e \
		-f "$FAB_DIR/osm/once.log" >"$FAB_DIR/osm/once.out" 2>&1)
}

# fab_sm_start [NODE]: a resident SM without periodic sweeps; returns when
# sminfo sees it master
fab_sm_start() {
	local node=${1:-node001} i
	(cd "$FAB_DIR/cwd" && SIM_HOST=$node LD_PRELOAD=$FAB_SHIM \
		OSM_TMP_DIR="$FAB_DIR/osm" OSM_CACHE_DIR="$FAB_DIR/osm" \
		exec opensm -e -s 0 -f "$FAB_DIR/osm/sm.log" \
		>"$FAB_DIR/osm/sm.out" 2>&1) &
	echo $! >"$FAB_DIR/sm.pid"
	for i in $(seq 1 100); do
		kill -0 "$(cat "$FAB_DIR/sm.pid")" 2>/dev/null || break
		if grep -q 'SUBNET UP\|Entering MASTER' "$FAB_DIR/osm/sm.log" 2>/dev/null &&
		   FAB_TIMEOUT=5 fab_run "$node" sminfo 2>/dev/null | grep -q MASTER; then
			return 0
		fi
		sleep 0.1
	done
	echo "fab_sm_start: opensm did not become master" >&2
	return 1
}

fab_kill() {	# fab_kill PIDFILE
	local pid i
	pid=$(cat "$1" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null
	for i in $(seq 1 30); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$1"
}

fab_sm_stop() { fab_kill "$FAB_DIR/sm.pid"; }

# free the slots of clients that are gone (killed by timeout, say)
fab_reap() {
	fab_cmd Attached | sed -n 's/^Client \([0-9]*\): pid \([0-9]*\).*/\1 \2/p' |
	while read -r n p; do
		kill -0 "$p" 2>/dev/null || fab_cmd "X $n" >/dev/null
	done
}

fab_stop() {
	[ -n "$FAB_DIR" ] || return 0
	fab_sm_stop
	fab_kill "$FAB_DIR/ibsim.pid"
	rm -rf "$FAB_DIR/cwd" "$FAB_DIR/con"
}

# fab_fattree SPINES LEAVES HCAS_PER_LEAF: a 2-level fat tree on stdout;
# every leaf has one cable to every spine; HCAs are node001..., their
# NodeDescription "nodeNNN mlx5_0"; the first node is an HCA so a client
# without SIM_HOST lands on node001
fab_fattree() {
	local s=$1 l=$2 h=$3 i j n
	echo "width=3"
	echo "speed=7"
	echo "extspeed=3"
	echo "switchguid=0x7cfe900300c00000"
	echo "caguid=0xb8cef60300d00000"
	for i in $(seq 1 "$l"); do
		for j in $(seq 1 "$h"); do
			n=$(printf '%03d' $(((i - 1) * h + j)))
			echo
			echo "vendid=0x2c9"
			echo "devid=0x101b"
			echo "Hca 1 \"node$n\" # \"node$n mlx5_0\""
			echo "[1] \"leaf$i\"[$j]"
		done
	done
	for i in $(seq 1 "$s"); do
		echo
		echo "vendid=0x2c9"
		echo "devid=0xd2f0"
		echo "Switch $((l > 2 ? l : 2)) \"spine$i\" # \"MF0;spine$i:MQM9700/U1\" enhanced port 0"
		for j in $(seq 1 "$l"); do
			echo "[$j] \"leaf$j\"[$((h + i))]"
		done
	done
	for i in $(seq 1 "$l"); do
		echo
		echo "vendid=0x2c9"
		echo "devid=0xd2f0"
		echo "Switch $((h + s)) \"leaf$i\" # \"MF0;leaf$i:MQM9700/U1\" enhanced port 0"
		for j in $(seq 1 "$h"); do
			echo "[$j] \"node$(printf '%03d' $(((i - 1) * h + j)))\"[1]"
		done
		for j in $(seq 1 "$s"); do
			echo "[$((h + j))] \"spine$j\"[$i]"
		done
	done
}

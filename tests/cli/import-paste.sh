# import-paste: what real pastes look like, read as an engineer reads them
# (issue 17): a single file, standard input, a ticket of several commands
# cut at its prompts, CRLF, colour codes and mail quoting undone, a
# tool's own failure, prose between the outputs, and nothing read never
# reported OK.
cd "$T" || exit 1
ibstat_text() {
	printf "CA 'mlx5_0'\n\tCA type: MT4129\n\tNumber of ports: 1\n"
	printf "\tFirmware version: 28.39.1002\n\tHardware version: 0\n"
	printf "\tNode GUID: 0x946dae0300d1a2b4\n\tSystem image GUID: 0x946dae0300d1a2b4\n"
	printf "\tPort 1:\n\t\tState: %s\n\t\tPhysical state: %s\n" "$1" "$2"
	printf "\t\tRate: 400\n\t\tBase lid: 12\n\t\tLMC: 0\n\t\tSM lid: 1\n"
	printf "\t\tCapability mask: 0xa751e848\n\t\tPort GUID: 0x946dae0300d1a2b4\n"
	printf "\t\tLink layer: InfiniBand\n"
}
inputs() {	# file: "file line status reader" of every input
	"$RA" report -f json "$@" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for n in d["nodes"]:
    for x in n.get("inputs", []):
        print(x["file"], x.get("line", 0), x["status"], x["reader"])'
}
findings() {
	"$RA" report -f json "$@" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(sorted(f["rule"] + ":" + f["component"] + ":" + f["severity"]
      for n in d["nodes"] for f in n["findings"])))'
}

# a file named anything, given alone, is read by its content
ibstat_text Down Polling >output.txt
check_eq "output.txt alone: read by the ibstat reader" "$(inputs output.txt)" \
	"output.txt 0 read ibstat"
check "... and its port is judged" sh -c '"$RA" output.txt | grep -q "PORT_DOWN .*mlx5_0:1"'
# standard input
check_eq "ibstat | rdma-analyze -: read" "$(ibstat_text Active LinkUp | inputs -)" \
	"stdin 0 read ibstat"
ibstat_text Active LinkUp | "$RA" - >stdin.out 2>&1
check_eq "... a healthy port: exit 0" "$?" 0

# a ticket: prose, prompts of three shapes, a filtered lsmod, a command
# with no reader, a tool's failure, CRLF and colour codes
{
	printf 'Hello, the node fails NCCL tests. Outputs:\r\n\r\n'
	printf '[root@gpu07 ~]# ibstat\r\n'
	ibstat_text Active LinkUp | sed 's/$/\r/'
	printf 'user@gpu07:~$ lsmod | grep mlx\n'
	printf 'mlx5_ib               483328  0\nmlx5_core            2277376  1 mlx5_ib\n'
	printf '$ dmesg | grep mlx5\n'
	printf '\033[32m[    5.123456]\033[0m mlx5_core 0000:3b:00.0: firmware version: 28.39.1002\n'
	printf '$ service opensmd restart\nRestarting opensmd:  [  OK  ]\n'
	printf '$ ibv_devinfo\nFailed to get IB devices list: Function not implemented\n'
	printf '$ perfquery\nthis is not perfquery output at all\n'
} >ticket.txt
check_eq "a ticket: each part to its reader, prose and foreign commands ignored" \
	"$(inputs ticket.txt)" "ticket.txt 1 ignored None
ticket.txt 4 read ibstat
ticket.txt 22 read lsmod
ticket.txt 25 read dmesg
ticket.txt 27 ignored None
ticket.txt 29 failed None
ticket.txt 31 unread None"
check_eq "... INPUT_UNREAD: the unreadable part a warning, the failure info" \
	"$(findings ticket.txt | tr ' ' '\n' | grep INPUT_UNREAD | tr '\n' ' ')" \
	"INPUT_UNREAD:ticket.txt:29:info INPUT_UNREAD:ticket.txt:31:warning "
check "... a filtered lsmod is no proof a module is missing" \
	sh -c '"$RA" ticket.txt | grep -q "skipped  MODULE_MISSING: in part: a filtered lsmod"'
check "... what it proves nothing about is named" \
	sh -c '"$RA" ticket.txt | tr -s " \n" " " | grep -q "not judged: ib_core, ib_uverbs, ib_cm, rdma_cm, rdma_ucm, ib_umad"'
check "... none of them is called missing" \
	sh -c '! "$RA" ticket.txt | grep -q "kernel MODULE_MISSING"'
# the Used-by of a line a grep kept is complete: ib_core's users are all
# of them, so what needs ib_core and is not among them is not loaded
printf '$ lsmod | grep ib_
ib_uverbs             163840  0
ib_core               393216  2 ib_uverbs,mlx5_ib
' >used-by.txt
"$RA" used-by.txt >used-by.out 2>&1
check "a filtered lsmod with ib_core's Used-by: rdma_cm is missing" \
	grep -q "critical kernel MODULE_MISSING  *module rdma_cm is not loaded" used-by.out
check "... and rdma_ucm, which needs it" \
	sh -c 'tr -s " \n" " " <used-by.out | grep -q "rdma_ucm in a filtered lsmod (2 lines), but rdma_cm, which rdma_ucm needs, is not loaded: ib_core is loaded and its Used-by (ib_uverbs,mlx5_ib) does not name rdma_cm"'
check "... mlx5_ib, named a user, is loaded; mlx5_core is not judged" \
	sh -c '! grep -q "module mlx5_ib is not" used-by.out && tr -s " \n" " " <used-by.out | grep -q "not judged: mlx5_core"'
check "... the summary counts the files" \
	sh -c '"$RA" ticket.txt | grep -q "^rdma-analyze: 1 input file(s) imported: 1 read, 1 not (wholly) understood"'
"$RA" report -f html -o t.html ticket.txt 2>/dev/null
check "... the HTML report names the part too" grep -q "ticket.txt line 31" t.html

# mail quoting, two levels
ibstat_text Active LinkUp | sed 's/^/> > /' >quoted.txt
check_eq "mail-quoted ibstat: read" "$(inputs quoted.txt)" "quoted.txt 0 read ibstat"

# nothing read is never OK
mkdir junk
printf 'hello\n' >junk/notes.txt
printf '\000\001\002' >junk/blob.bin
"$RA" junk >junk.out 2>junk.err
check_eq "a folder of which nothing is read: exit 4" "$?" 4
check "... one line names its files and why" grep -q \
	"^rdma-analyze: junk: no evidence read (2 of 2 file(s) looked at, none understood): blob.bin: binary data" junk.err
check "... the report says NO EVIDENCE, never OK" \
	sh -c 'grep -q "^NO EVIDENCE" junk.out && ! grep -q "^OK" junk.out'
: >empty.txt
"$RA" empty.txt >/dev/null 2>empty.err
check_eq "an empty file: exit 4, one line" "$? $(cat empty.err)" \
	"4 rdma-analyze: empty.txt: no evidence read (1 of 1 file(s) looked at, none understood): empty.txt: empty: nothing but blank lines"
"$RA" report -f json junk >junk.json 2>/dev/null
check_eq "... the JSON report too: exit 4, no node" "$? $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["nodes"]))' junk.json)" "4 0"

# memlock: "ulimit -a" echoed as its first line, and a process's limits
# shown by cat (as --pid keeps them), both 64 KiB
printf 'ulimit -a\ncore file size          (blocks, -c) 0\nmax locked memory       (kbytes, -l) 64\n' >ulimit.txt
check_eq "ulimit -a with its command echoed: MEMLOCK_LIMITED" \
	"$(findings ulimit.txt | tr ' ' '\n' | grep MEMLOCK)" "MEMLOCK_LIMITED:memlock:critical"
# the options apart, as bash also takes them: -S -l the soft limit,
# -H -l the hard one
printf '# ulimit -S -l\n64\n# ulimit -H -l\nunlimited\n' >ulimit-split.txt
check_eq "ulimit -S -l and ulimit -H -l: each read by its reader" \
	"$(inputs ulimit-split.txt)" "ulimit-split.txt 2 read ulimit -l
ulimit-split.txt 4 read ulimit -Hl"
check_eq "... the soft 64 KiB judged" \
	"$(findings ulimit-split.txt | tr ' ' '\n' | grep MEMLOCK)" "MEMLOCK_LIMITED:memlock:critical"
# one limit a prompt, as a checklist asks: the limits other than locked
# memory (open files, processes, stack, a value being set) are no
# evidence left unread; -l and -a stay the readers'
printf '$ ulimit -Hn\n4096\n$ ulimit -S -u\n1024\n$ ulimit -s 8192\n$ ulimit -Hl\n64\n$ ulimit -Hc\n0\n' >ulimit-each.txt
check_eq "ulimit of other limits: ignored, -Hl read" \
	"$(inputs ulimit-each.txt | cut -d' ' -f2-)" "2 ignored None
4 ignored None
6 ignored None
7 read ulimit -Hl
9 ignored None"
printf '# cat /proc/3844/limits | grep locked\nMax locked memory         65536                65536                bytes     \n' >limits.txt
check_eq "cat /proc/PID/limits: the process's limit is judged" \
	"$(findings limits.txt | tr ' ' '\n' | grep MEMLOCK)" "MEMLOCK_LIMITED:memlock:critical"
check_eq "... its reader named for the file, not for cat" \
	"$(inputs limits.txt)" "limits.txt 0 read /proc/PID/limits"
# a cat of a file no check reads is no evidence: named, not "read"
printf '$ cat /proc/cmdline\nBOOT_IMAGE=/vmlinuz ro iommu=pt\n$ cat /etc/systemd/system.conf\n[Manager]\nDefaultLimitMEMLOCK=infinity\n' >cats.txt
check_eq "cat of /proc/cmdline read by its reader; of a systemd file not read" \
	"$(inputs cats.txt)" "cats.txt 2 read /proc/cmdline
cats.txt 4 unread None"
check "... the unread one says why" sh -c '"$RA" report -f json cats.txt |
	grep -q "a copy of /etc/systemd/system.conf: no check reads that file"'
# /proc/cmdline as mails carry it: the command typed without a prompt,
# the line wrapped by the mail client; every parameter is kept
printf 'cat /proc/cmdline\nBOOT_IMAGE=(hd0,msdos1)/vmlinuz root=/dev/sda1\nro intel_iommu=on\niommu=pt\n' >cmdline.txt
check_eq "cmdline typed without a prompt, wrapped: read" \
	"$(inputs cmdline.txt)" "cmdline.txt 0 read /proc/cmdline"
"$RA" load -q --db c.db cmdline.txt 2>/dev/null
check_eq "... its lines joined, iommu=pt of the last one kept" \
	"$(sqlite3 c.db "SELECT value FROM facts WHERE key IN ('cmdline', 'iommu_passthrough') ORDER BY key")" \
	"BOOT_IMAGE=(hd0,msdos1)/vmlinuz root=/dev/sda1 ro intel_iommu=on iommu=pt
1"
# uname -a under a bug template's heading, of a node whose name was
# never set: the kernel is kept, "(none)" is no hostname
mkdir un
ibstat_text Active LinkUp >un/ibstat.txt
printf '* Linux kernel and version\nLinux (none) 5.2.0-rc4 #1 SMP PREEMPT Sat Jun 29 11:23:58 HKT 2019 aarch64 GNU/Linux\n\n* InfiniBand hardware\nmlx5\n' >un/ticket.txt
"$RA" load -q --db u.db un 2>/dev/null
check_eq "uname -a in a bug template: kernel kept, no hostname '(none)'" \
	"$(sqlite3 u.db 'SELECT kernel_release, hostname FROM bundles')" "5.2.0-rc4|unknown"
# uptime in its forms, each next to an ibstat: procps with days and
# h:mm, minutes alone, busybox (no users), uptime -p (hours and minutes
# spelled out: never 0 s); uptime -s (the boot time, no duration) is
# named not understood, the uptime not guessed
up_case() {	# dir text
	mkdir "$1"
	ibstat_text Active LinkUp >"$1/ibstat.txt"
	printf '%s\n' "$2" >"$1/uptime"
	"$RA" load -q --db "$1.db" "$1" 2>/dev/null
	sqlite3 "$1.db" 'SELECT uptime_s FROM bundles'
}
check_eq "uptime: days and h:mm" "$(up_case up1 \
	' 10:04:01 up 3 days,  2:03,  1 user,  load average: 0.00, 0.01, 0.05')" 266580.0
check_eq "uptime: minutes alone" "$(up_case up2 \
	' 19:23:40 up 25 min,  1 user,  load average: 0.83, 0.73, 0.76')" 1500.0
check_eq "uptime: busybox, a day and minutes, no users" "$(up_case up3 \
	' 12:00:00 up 1 day, 20 min,  load average: 0.10, 0.20, 0.30')" 87600.0
check_eq "uptime -p: hours and minutes, not 0 s" \
	"$(up_case up4 'up 2 hours, 3 minutes')" 7380.0
check_eq "uptime -p: weeks, days, hours, a minute" \
	"$(up_case up5 'up 29 weeks, 4 days, 11 hours, 1 minute')" 17924460.0
check_eq "uptime -s: no uptime" "$(up_case up6 '2018-06-14 09:03:22')" ""
check_eq "... the file named not understood" \
	"$(inputs up6 | grep "^uptime ")" "uptime 0 unread None"

# ethtool -S as pastes carry it: no header, no indentation, trailing
# blanks, and no interface name: read as interface "unnamed", said so
printf 'rx_packets: 845320277\ntx_packets: 896117891   \nrx_discards_phy: 7\n' >ethtool-S.txt
check_eq "ethtool -S without header, indentation or name: read" \
	"$(inputs ethtool-S.txt)" "ethtool-S.txt 0 read ethtool -S"
check_eq "... its counters kept on interface 'unnamed'" \
	"$("$RA" show ethtool-S.txt ethtool -S unnamed 2>&1 | grep -c '^     rx_')" "2"
# with the ethtool -i that says the driver (the mlx5 counter checks need
# an mlx5 device), both unnamed outputs are one interface, judged
mkdir eth
mv ethtool-S.txt eth/
printf 'driver: mlx5_core\nversion: 5.0-0\nbus-info: 0000:3b:00.0\n' >eth/ethtool-i.txt
check_eq "... and its counters judged on interface 'unnamed'" \
	"$(findings eth | tr ' ' '\n' | grep RX_BUFFER)" "RX_BUFFER_DROPS:unnamed:warning"

# two kernel logs of one node: one log, the records both have kept once
mkdir klogs
printf '[   10.000000] mlx5_core 0000:3b:00.0 ens1f0: Link down\n[   20.000000] mlx5_core 0000:3b:00.0 ens1f0: Link up\n' >klogs/dmesg.txt
printf 'Nov 29 21:04:05 n1 kernel: mlx5_core 0000:3b:00.0 ens1f0: Link down\nNov 29 21:04:15 n1 kernel: mlx5_core 0000:3b:00.0 ens1f0: Link up\nNov 29 21:09:01 n1 kernel: mlx5_core 0000:5e:00.0: poll_health:702:(pid 0): Fatal error 1 detected\n' >klogs/journalctl-k.txt
check_eq "two kernel logs: both read" "$(inputs klogs | cut -d' ' -f3 | tr '\n' ' ')" "read read "
check_eq "... one log of their records, the shared ones once" \
	"$("$RA" show klogs dmesg 2>/dev/null | grep -c 'Link down\|Fatal error')" "2"
check_eq "... the second log's own record judged" \
	"$(findings klogs | tr ' ' '\n' | grep -c 'FW_RESET:0000:5e:00.0')" "1"

# dmesg -t (no stamps): a driver's lines naming their PCI function are
# records; a line wrapped by the page that quoted it is joined back
mkdir notime
printf '    mlx5_core 0000:81:00.0: port_module:252:(pid 0): Port module\n    event[error]: module 0, Cable error, Power budget exceeded\n' >notime/dmesg.txt
check_eq "dmesg -t, indented and wrapped: read" "$(inputs notime | cut -d' ' -f3)" "read"
check_eq "... the module event judged" \
	"$(findings notime | tr ' ' '\n' | grep CABLE)" "CABLE_MODULE_ERROR:0000:81:00.0:critical"

# dmesg -T: "[Sat Nov 29 21:04:05 2025] " (ctime, the day padded)
mkdir ctime
printf '[Sat Nov  1 21:04:05 2025] mlx5_core 0000:3b:00.0: firmware version: 28.39.1002\n[Sat Nov  1 21:04:06 2025] mlx5_core 0000:3b:00.0: Port module event[error]: module 0, Cable error, High Temperature\n' >ctime/dmesg.txt
check_eq "dmesg -T: read" "$(inputs ctime | cut -d' ' -f3)" "read"
check_eq "... and judged" "$(findings ctime | tr ' ' '\n' | grep -c CABLE_MODULE_ERROR)" "1"

# several ethtool commands pasted without prompts: each bare command line
# starts its part; the output names its interface ("Settings for eth3:",
# "Pause parameters for eth3:"), indented or not; ring sizes (-g) are no
# evidence a check reads: ignored, not unread
mkdir bare
printf 'ethtool eth3\nSettings for eth3:\n\tSpeed: 25000Mb/s\n\tDuplex: Full\n\tLink detected: yes\n' >bare/t.txt
printf 'ethtool --include-statistics -a eth3\n  Pause parameters for eth3:\n  Autonegotiate:\ton\n  RX:\t\ton\n  TX:\t\toff\n  RX negotiated: on\n  Statistics:\n    rx_pause_frames: 100\n' >>bare/t.txt
printf 'ethtool -g eth3\nRing parameters for eth3:\nRX:\t\t511\nTX:\t\t511\n' >>bare/t.txt
check_eq "bare ethtool command lines: each its part, -g ignored" \
	"$(inputs bare | cut -d' ' -f2- | tr '\n' ';')" \
	"2 read ethtool;7 read ethtool -a;15 ignored None;"
check_eq "... the pause settings as printed (RX on, TX off)" \
	"$("$RA" show bare ethtool -a eth3 2>&1 | tr '\t\n' ' ;')" \
	"Pause parameters for eth3:;Autonegotiate: on;RX:  on;TX:  off;"
# dcb pfc show: named attributes on one line, no interface name (a
# service's log): read as "unnamed"; only the PFC counters (no prio-pfc
# map) are no PFC setting: PFC_DISABLED has nothing to judge
mkdir dcbl
printf 'PFC state of the port:\npfc-cap 8 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off delay 0\n' >dcbl/svc.log
check_eq "dcb pfc show with named attributes, no interface: read" \
	"$(inputs dcbl | cut -d' ' -f3- ; "$RA" show dcbl dcb pfc show dev unnamed 2>&1 | tail -1)" \
	"read dcb pfc show
prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off "
mkdir dcbi
printf '$ dcb -s pfc show dev eth3 indications\nindications 0:0 1:0 2:0 3:1234 4:0 5:0 6:0 7:0\n' >dcbi/t.txt
check_eq "dcb indications alone: read, no PFC map shown" \
	"$(inputs dcbi | cut -d' ' -f3- ; "$RA" show dcbi dcb -s pfc show dev eth3 2>&1 | tr '\n' ';')" \
	"read dcb pfc show
indications 0:0 1:0 2:0 3:1234 4:0 5:0 6:0 7:0 ;"

# prompts of other shells: a conda/virtualenv "(env) " before any, zsh's
# "user@host ~ %" and "host%", bash's "host:~$" without a user, macOS'
# "host:~ user$"; a prompt with no command ends the part before it
parts() {	# file: "line command status" of every part
	"$RA" report -f json "$@" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for n in d["nodes"]:
    for x in n.get("inputs", []):
        print(x.get("line", 0), x.get("command"), x["status"])'
}
{
	printf '(env) user@gpu07:~$ ibstat\n'
	ibstat_text Active LinkUp
	printf '(base) $ lsmod | grep mlx\nmlx5_ib               483328  0\n'
	printf '(pytorch) [root@gpu07 ~]# dmesg | grep mlx5\n'
	printf '[    5.123456] mlx5_core 0000:3b:00.0: firmware version: 28.39.1002\n'
	printf 'user@gpu07 ~ %% ibv_devices\n    device                 node GUID\n'
	printf '    ------              ----------------\n    mlx5_0              946dae0300d1a2b4\n'
	printf 'gpu07%% hostname\ngpu07\n'
	printf 'gpu07:~$ uname -r\n6.1.0-27-amd64\n'
	printf 'Mac-mini:~ john$ uptime\n 10:00  up 1 day\n'
	printf 'user@gpu07:~$\nthe uptime above was from my laptop\n'
	printf '100%% done\n'
} >shells.txt
check_eq "prompts of other shells: each part with its command" "$(parts shells.txt)" \
"2 ibstat read
20 lsmod | grep mlx read
22 dmesg | grep mlx5 read
24 ibv_devices read
28 hostname read
30 uname -r ignored
32 uptime read
34 None ignored"

# a markdown quote mark on the prompt lines only (the output follows as
# the quote's lazy continuation): each its part; bash's "> " continuation
# lines of a loop are no prompts
{
	printf '>[root@login ~]# ps aux | grep slurm\n'
	printf 'root 12287 0.0 0.5 594440 9892 ? Sl 14:42 0:00 /usr/sbin/slurmctld\n\n'
	printf '> [root@login ~]# cat /proc/12287/limits\n'
	printf '%-25s %-20s %-20s %-10s\n' Limit 'Soft Limit' 'Hard Limit' Units \
		'Max locked memory' 65536 65536 bytes
	printf '$ for i in eth2 eth3; do\n> ethtool -a $i\n> done\n'
} >quoted.txt
check_eq "quote-marked prompts: each part with its command" "$(parts quoted.txt)" \
"2 ps aux | grep slurm ignored
5 cat /proc/12287/limits read
8 for i in eth2 eth3; do ignored"

# "lsmod | grep X" that printed nothing: X is not loaded, and nothing
# more is known; both peer-memory modules absent on a node whose NCCL
# log shows GPUs and HCAs is PEERMEM_MISSING
nccl_log() {
	printf 'gpu3:28331:28331 [0] NCCL INFO Bootstrap : Using eth0:10.0.1.2<0>\n'
	printf 'gpu3:28331:28331 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.0.1.2<0>\n'
	printf 'gpu3:28332:28332 [1] NCCL INFO Bootstrap : Using eth0:10.0.1.2<0>\n'
}
peer() {	# case, then the ticket's lines
	mkdir "$1"
	nccl_log >"$1/nccl.log"
	c=$1
	shift
	printf '%s\n' "$@" >"$c/ticket.txt"
}
peermem() {	# case: its PEERMEM_MISSING finding, or skipped/none
	"$RA" report -f json "$1" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
n = d["nodes"][0]
f = [x["component"] + ":" + x["severity"] for x in n["findings"]
     if x["rule"] == "PEERMEM_MISSING"]
s = [x for x in n.get("skipped", []) if x["rule"] == "PEERMEM_MISSING"]
print(" ".join(f) if f else "skipped" if s else "none")'
}
peer pm1 '(pytorch) [root@gpu3 ~]# lsmod | grep nvidia_peermem' \
	'(pytorch) [root@gpu3 ~]# lsmod | grep nv_peer_mem' '(pytorch) [root@gpu3 ~]#'
check_eq "two empty greps of lsmod: PEERMEM_MISSING" "$(peermem pm1)" \
	"nvidia_peermem:critical"
check_eq "... both parts read by the lsmod reader" "$(inputs pm1 | grep ticket)" \
	"ticket.txt 2 read lsmod
ticket.txt 3 read lsmod"
"$RA" pm1 >pm1.out 2>&1
check "... the command lines are the evidence" sh -c 'tr -s " \n" " " <pm1.out |
	grep -q "printed-nothing.txt (from ticket.txt): '\''lsmod | grep nvidia_peermem'\'' and '\''lsmod | grep nv_peer_mem'\'' printed nothing"'
check "... no other module is called missing: the list is partial" \
	sh -c 'grep -q "skipped  MODULE_MISSING: no complete module list" pm1.out'
peer pm2 '$ lsmod | grep nvidia_peermem'
check_eq "nvidia_peermem alone absent: nv_peer_mem may be loaded" "$(peermem pm2)" skipped
peer pm3 '$ lsmod | grep -i PEER'
check_eq "lsmod | grep -i PEER printed nothing: both absent" "$(peermem pm3)" \
	"nvidia_peermem:critical"
peer pm4 "$ grep -E 'nvidia_peermem|nv_peer_mem' /proc/modules"
check_eq "grep -E 'a|b' /proc/modules printed nothing: both absent" "$(peermem pm4)" \
	"nvidia_peermem:critical"
peer pm5 '$ cat /proc/modules | grep nvidia_peermem' '$ lsmod | grep -w nv_peer_mem'
check_eq "cat /proc/modules | grep, and grep -w: both absent" "$(peermem pm5)" \
	"nvidia_peermem:critical"
peer pm6 '$ lsmod | grep -q nvidia_peermem' '$ lsmod | grep -v nv_peer_mem' \
	'$ lsmod | grep "nv.*peer"' '$ lsmod | grep -w nvidia'
check_eq "grep -q, -v, a regular expression, a word of no module: no proof" \
	"$(peermem pm6)" skipped
check_eq "... the ones that prove nothing are said to have printed nothing" \
	"$(inputs pm6 | grep ticket)" "ticket.txt 2 unread None
ticket.txt 3 unread None
ticket.txt 4 unread None
ticket.txt 5 read lsmod"
peer pm7 '$ lsmod' 'Module                  Size  Used by' \
	'nvidia_peermem         16384  0' '$ lsmod | grep nv_peer_mem' \
	'$ lsmod | grep nvidia_peermem'
check_eq "a whole lsmod shows nvidia_peermem: the empty greps do not outweigh it" \
	"$(peermem pm7)" none
# a filter that kept lsmod's header is still a filter
printf '$ lsmod | grep -E "Module|mlx5"\nModule                  Size  Used by\nmlx5_ib               483328  0\n' >hdr.txt
check "lsmod | grep -E 'Module|mlx5': the list is partial" sh -c \
	'"$RA" hdr.txt | grep -q "skipped  MODULE_MISSING: no complete module list"'

# a paste naming the files it shows: grep's "path:line" (the path ends at
# the first ':' outside a PCI address; grep's complaints counted) and
# head's or tail -v's "==> path <==" headers, each file a raw copy
{
	printf '$ grep . /sys/class/infiniband/*/ports/*/{state,phys_state,rate}\n'
	printf '/sys/class/infiniband/mlx5_0/ports/1/state:1: DOWN\n'
	printf '/sys/class/infiniband/mlx5_1/ports/1/state:4: ACTIVE\n'
	printf '/sys/class/infiniband/mlx5_0/ports/1/phys_state:2: Polling\n'
	printf '/sys/class/infiniband/mlx5_1/ports/1/phys_state:5: LinkUp\n'
	printf '/sys/class/infiniband/mlx5_0/ports/1/rate:10 Gb/sec (4X SDR)\n'
	printf '/sys/class/infiniband/mlx5_1/ports/1/rate:400 Gb/sec (4X NDR)\n'
	printf 'grep: /sys/class/infiniband/mlx5_1/ports/1/gid_attrs/types/9: Invalid argument\n'
	printf '$ grep -H . /sys/bus/pci/devices/0000:3b:00.0/*_link_*\n'
	printf '/sys/bus/pci/devices/0000:3b:00.0/current_link_speed:8.0 GT/s PCIe\n'
	printf '/sys/bus/pci/devices/0000:3b:00.0/max_link_speed:16.0 GT/s PCIe\n'
} >grepdot.txt
check_eq "grep . FILES: read as the copies it names" "$(inputs grepdot.txt)" \
	"grepdot.txt 2 read sysfs file
grepdot.txt 10 read sysfs file"
check "... the port that is down is judged" sh -c \
	'"$RA" grepdot.txt | grep -q "PORT_DOWN .*mlx5_0:1"'
"$RA" show grepdot.txt lspci >grepdot.lspci 2>&1
check "... the PCI path's colons stay in the path" \
	grep -q "^3b:00.0" grepdot.lspci
printf '$ grep -i down /sys/class/infiniband/*/ports/*/state\n/sys/class/infiniband/mlx5_0/ports/1/state:1: DOWN\n' >grepi.txt
check_eq "grep PATTERN FILES: only the matched lines are known, partial" \
	"$(inputs grepi.txt)" "grepi.txt 0 partial sysfs file"
printf '> head /sys/class/net/ib0/mtu /sys/class/net/ib0/operstate\n==> /sys/class/net/ib0/mtu <==\n2044\n\n==> /sys/class/net/ib0/operstate <==\nup\n' >headv.txt
check_eq "head FILES (its command line behind a prompt not taken): read" \
	"$(inputs headv.txt)" "headv.txt 0 read sysfs file"
printf '$ grep . /sys/class/drm/card0/device/current_link_speed /sys/class/drm/card0/device/max_link_speed\n/sys/class/drm/card0/device/current_link_speed:16.0 GT/s PCIe\n/sys/class/drm/card0/device/max_link_speed:16.0 GT/s PCIe\n' >drm.txt
"$RA" drm.txt >/dev/null 2>drm.err
check "grep . of files no check reads: unread, and said" \
	grep -q "drm.txt: copies of 2 file(s) no check reads" drm.err
# a loop echoing each file's name above it: relative names under the
# folder the prompt shows; without such a folder they name nothing
{
	printf 'root@n1:/sys/class/infiniband/mlx5_0/ports/1# for f in state rate; do echo "=== $f ==="; cat $f; echo; done\n'
	printf '=== state ===\n1: DOWN\n\n=== rate ===\n40 Gb/sec (4X QDR)\n'
} >loop.txt
check_eq "for f; echo === f ===; cat f under a prompt's folder: read" \
	"$(inputs loop.txt)" "loop.txt 0 read sysfs file"
check "... its port is judged" sh -c '"$RA" loop.txt | grep -q "PORT_DOWN .*mlx5_0:1"'
printf '=== state ===\n1: DOWN\n' >noloop.txt
check "=== name === without a folder: not read" sh -c \
	'"$RA" noloop.txt >/dev/null 2>&1; test $? = 4'

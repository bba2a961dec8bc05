# Without root: collect what is readable, record `denied` for the rest, and
# still write the bundle.
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "non-root run" "needs root (to drop to nobody) and setpriv"
	exit 0
fi
d=$(mktemp -d /tmp/rdma-nonroot.XXXXXX)
trap 'rm -rf "$d"' EXIT
chmod 755 "$d"
cp "$RC" "$d/rdma-collect"
mkdir -p "$d/root/proc/sys/kernel/random" "$d/root/etc/security" "$d/out"
echo nr-node >"$d/root/proc/sys/kernel/hostname"
echo 6.1.0-27-amd64 >"$d/root/proc/sys/kernel/osrelease"
echo 0f6a1c2e-0000-4000-8000-000000000001 >"$d/root/proc/sys/kernel/random/boot_id"
echo "*  hard  memlock  unlimited" >"$d/root/etc/security/limits.conf"
echo 123.45 67.89 >"$d/root/proc/uptime"
echo secret >"$d/root/proc/cmdline"
chmod 0400 "$d/root/proc/cmdline"
chmod 0400 "$d/root/etc/security/limits.conf"
chmod -R a+rX "$d/root"
chmod 0400 "$d/root/proc/cmdline" "$d/root/etc/security/limits.conf"
chmod 1777 "$d/out"
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$d/rdma-collect" -q --root "$d/root" -o "$d/out" >"$d/path" 2>"$d/err"
check_eq "as nobody: exit 0" "$?" 0
b=$(cat "$d/path")
check "as nobody: the bundle exists" test -s "$b"
m=$(manifest "$b")
check "manifest says not root" sh -c "echo '$m' | grep -q '\"as_root\": false'"
check_eq "identity is partial (proc/cmdline denied)" "$(src_status "$b" identity)" partial
check "error_list names proc/cmdline with EACCES" sh -c \
	"echo '$m' | tr -d ' \n' | grep -q '\"path\":\"proc/cmdline\",\"errno\":\"EACCES\"'"
check_eq "limits is partial (limits.conf denied)" "$(src_status "$b" limits)" partial
check "the readable evidence is there" sh -c \
	"tar --zstd -xOf '$b' proc/sys/kernel/hostname | grep -qx nr-node"
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$d/rdma-collect" -q -o "$d/out" >"$d/path2" 2>"$d/err2"
check_eq "live run as nobody: exit 0" "$?" 0

#!/usr/bin/env python3
# tests/tools/readonly-check.py: the read-only proof over an strace of
# rdma-collect (strace -ff -y: one file per process, descriptors annotated
# with their paths).  Used by tests/cli/readonly.sh (fixture roots, the live
# machine) and tests/cli/vm.sh (the Soft-RoCE guest).
#
#   readonly-check.py [--foreign] [--command-path DIRS --allow NAMES]
#                     TRACE OUT COLLECTOR
#
# TRACE is the folder of trace files, OUT the collector's output folder,
# COLLECTOR its path as executed.  A violation is:
#   - an open for writing, or a rename/unlink/mkdir/chmod/link/truncate,
#     outside OUT (/dev/null excepted: the commands' stdin; and a uverbs
#     device node opened O_RDWR, without O_CREAT, O_TRUNC or O_APPEND:
#     libibverbs' ibv_open_device opens it so, and every verbs query is an
#     ioctl on it, whose method strace does not show);
#   - a write to a descriptor on /sys, /proc or /dev;
#   - init_module, finit_module, delete_module, mount, umount2;
#   - an open of a PCI resource*, rom or vpd file;
#   - an execve but the first (the collector) and, with --command-path,
#     the --allow programs in one of those folders;
#   - a netlink request that is not a query: rtnetlink's kind (type & 3)
#     other than 2, GET (the kernel's own test: rtnetlink_rcv_msg asks
#     CAP_NET_ADMIN of every other kind), an RDMA netlink operation other
#     than nldev's GETs (rdma_netlink.h), a request on any other netlink
#     protocol (this needs the network calls in the trace: no -e trace
#     filter, or one with %network);
#   - an ioctl on a socket other than an SIOCG* (a get) or SIOCETHTOOL.
# Not visible in a trace, so not checked: the command of an SIOCETHTOOL
# ioctl and the method of a verbs ioctl (strace prints only the address of
# their argument).
# An attempt counts whatever the kernel answered: a failed open for
# writing is still one.
#
# --foreign: the trace comes from another machine (the guest): its paths
# are compared as written, never resolved against this machine's links.
#
# Prints one line of figures, then up to 15 VIOLATION lines; exit 1 if
# there is any violation, 2 on bad arguments or an empty trace folder.
import argparse
import os
import re
import sys

WFLAGS = re.compile(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND")
OPEN = re.compile(r'^(open|openat|openat2|creat)\((?:(?:AT_FDCWD|\d+)'
                  r'(?:<([^>]*)>)?, )?"((?:[^"\\]|\\.)*)"(?:, ([A-Z_|0-9]+))?')
MUT = re.compile(r'^(rename|renameat2?|unlink|unlinkat|mkdir|mkdirat|rmdir|'
                 r'link|linkat|symlink|symlinkat|chmod|fchmodat|chown|lchown|'
                 r'fchownat|truncate|mknod|mknodat|utimensat|setxattr|'
                 r'lsetxattr|removexattr)\(')
MUT_PATH = re.compile(r'(?:(?:AT_FDCWD|\d+)<([^>]*)>, )?"((?:[^"\\]|\\.)*)"')
WRITE = re.compile(r'^(write|pwrite64|writev|pwritev2?|ftruncate|fallocate|'
                   r'sendfile)\(\d+<([^>]*)>')
KERNEL = re.compile(r"/(sys|proc|dev)/")
MODMOUNT = re.compile(r"(init_module|finit_module|delete_module|mount|"
                      r"umount2)\(")
EXECVE = re.compile(r'execve\("([^"]*)"')
BAD = re.compile(r"/(resource\d*(_wc)?|rom|vpd)$")
UVERBS = re.compile(r"^/dev/infiniband/uverbs\d+$")
SOCKET = re.compile(r"^socket\(AF_NETLINK, [^,]*, (\w+)\) = \d+<socket:\[(\d+)\]>")
SEND = re.compile(r"^(sendto|sendmsg|write|writev)\(\d+<socket:\[(\d+)\]>")
NLTYPE = re.compile(r"nlmsg_type=([^,]+)")
SOCKIOCTL = re.compile(r"^ioctl\(\d+<socket:\[\d+\]>, (\w+)")
# rdma_netlink.h: RDMA_NL_NLDEV (client 5), its operations that only read
NLDEV = 5
NLDEV_READ = {
    1: "GET", 5: "PORT_GET", 6: "SYS_GET", 9: "RES_GET", 10: "RES_QP_GET",
    11: "RES_CM_ID_GET", 12: "RES_CQ_GET", 13: "RES_MR_GET",
    14: "RES_PD_GET", 15: "GET_CHARDEV", 17: "STAT_GET",
    19: "RES_QP_GET_RAW", 20: "RES_CQ_GET_RAW", 21: "RES_MR_GET_RAW",
    22: "RES_CTX_GET", 23: "RES_SRQ_GET", 24: "STAT_GET_STATUS",
}
RTM_BASE = 16


# t.<pid> in the order the processes started (a PID wrap aside): by name,
# t.1002 would come before t.998, and with it a command's execve first
def pid_order(name):
    tail = name.rsplit(".", 1)[-1]
    return (0, int(tail), name) if tail.isdigit() else (1, 0, name)


# netlink_query PROTO TYPE: whether one message of a request only asks;
# TYPE as strace prints it: a number when it does not know the protocol
# (-y), a name when it does (-yy)
def netlink_query(proto, t):
    t = t.split(" ", 1)[0]
    if re.match(r"^(0x[0-9a-f]+|\d+)$", t):
        n = int(t, 0)
        if proto == "NETLINK_ROUTE":
            return n >= RTM_BASE and n & 3 == 2
        if proto == "NETLINK_RDMA":
            return n >> 10 == NLDEV and (n & 0x3ff) in NLDEV_READ
        return False
    if proto == "NETLINK_ROUTE":
        return re.match(r"^RTM_GET\w+$", t) is not None
    m = re.match(r"^RDMA_NL_GET_TYPE\(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_(\w+)\)", t)
    return proto == "NETLINK_RDMA" and m is not None and \
        m.group(1) in NLDEV_READ.values()


def main():
    ap = argparse.ArgumentParser(description="read-only proof of a trace")
    ap.add_argument("--foreign", action="store_true")
    ap.add_argument("--command-path", default="")
    ap.add_argument("--allow", default="")
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("collector")
    a = ap.parse_args()

    real = (lambda p: p) if a.foreign else os.path.realpath
    out = real(a.out)
    allow = {os.path.join(d, n) for d in a.command_path.split(":") if d
             for n in a.allow.split()}
    try:
        files = sorted(os.listdir(a.trace), key=pid_order)
    except OSError as e:
        print("readonly-check: %s: %s" % (a.trace, e.strerror))
        return 2
    if not files:
        print("readonly-check: %s: no trace files" % a.trace)
        return 2

    def under(p):
        return p == out or p.startswith(out + "/")

    v, n, opens, execs, nlsent = [], 0, 0, [], 0
    nlproto = {}    # socket inode: netlink protocol
    for f in files:
        for line in open(os.path.join(a.trace, f), errors="replace"):
            n += 1
            line = line.rstrip("\n")
            m = OPEN.match(line)
            if m:
                opens += 1
                base, path, flags = m.group(2), m.group(3), m.group(4) or ""
                if not path.startswith("/") and base:
                    path = os.path.join(base, path)
                path = os.path.normpath(path)
                if BAD.search(path):
                    v.append("opened a forbidden file: " + line)
                verbs = UVERBS.match(path) and "O_RDWR" in flags and \
                    not re.search(r"O_CREAT|O_TRUNC|O_APPEND", flags)
                if (WFLAGS.search(flags) and not under(path)
                        and path != "/dev/null" and not verbs):
                    v.append("open for writing outside the output: " + line)
                continue
            if MUT.match(line):
                paths = [os.path.normpath(os.path.join(b or "/", p))
                         for b, p in MUT_PATH.findall(line)]
                if not all(under(p) for p in paths):
                    v.append("changed a file outside the output: " + line)
                continue
            m = WRITE.match(line)
            if m and KERNEL.match(m.group(2)) and m.group(2) != "/dev/null":
                v.append("wrote to " + m.group(2) + ": " + line)
                continue
            if MODMOUNT.match(line):
                v.append("module or mount call: " + line)
                continue
            m = EXECVE.match(line)
            if m:
                execs.append(m.group(1))
                continue
            m = SOCKET.match(line)
            if m:
                nlproto[m.group(2)] = m.group(1)
                continue
            m = SEND.match(line)
            if m and m.group(2) in nlproto:
                nlsent += 1
                proto = nlproto[m.group(2)]
                types = NLTYPE.findall(line)
                if not types or not all(netlink_query(proto, t)
                                        for t in types):
                    v.append("netlink request that is not a query (%s): %s"
                             % (proto, line))
                continue
            m = SOCKIOCTL.match(line)
            if m and not re.match(r"^(SIOCG\w+|SIOCETHTOOL)$", m.group(1)):
                v.append("socket ioctl that is not a get: " + line)
    # the first execve is the collector itself
    if not execs or real(execs[0]) != real(a.collector):
        v.append("the first execve is not the collector: %s" % execs[:1])
    for e in execs[1:]:
        if e not in allow:
            v.append("execve outside the allowlist: " + e)
    after = sorted({os.path.basename(e) for e in execs[1:]})
    print("%d processes, %d syscalls, %d opens, %d netlink requests, "
          "%d execve (%s)" % (len(files), n, opens, nlsent, len(execs),
        " ".join(after) or "none after the collector"))
    for x in v[:15]:
        print("VIOLATION", x[:300])
    return 1 if v else 0


if __name__ == "__main__":
    sys.exit(main())

/* rxe-add: add a Soft-RoCE device over a netdev, as iproute2's
 * `rdma link add IBDEV type rxe netdev NETDEV` does, for the static VM
 * guest (tests/vm/), which has no iproute2 and no shared library at all.
 *
 *   rxe-add IBDEV NETDEV
 *
 * Sends one RDMA netlink request, RDMA_NLDEV_CMD_NEWLINK with the device
 * name, the link type "rxe" and the netdev's name, and waits for the
 * kernel's acknowledgement.  Exit 0 when the kernel accepted it, 1 with
 * the kernel's errno on stderr otherwise, 2 on a usage error.  Built with
 * -static (the Makefile); a test tool, never part of the collector, which
 * only reads. */
#include <errno.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define MSG_SIZE 512

/* put_str: a NUL-terminated string attribute at the end of the message */
static int put_str(struct nlmsghdr *h, size_t room, int type, const char *s)
{
	struct nlattr *a = (struct nlattr *)((char *)h + NLMSG_ALIGN(h->nlmsg_len));
	size_t len = NLA_HDRLEN + strlen(s) + 1;

	if (NLMSG_ALIGN(h->nlmsg_len) + NLA_ALIGN(len) > room)
		return -1;
	a->nla_type = type;
	a->nla_len = len;
	memcpy((char *)a + NLA_HDRLEN, s, strlen(s) + 1);
	h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len) + NLA_ALIGN(len);
	return 0;
}

/* 0 when the kernel acknowledged request SEQ, else a positive errno */
static int read_ack(int fd, unsigned seq)
{
	union {
		char b[8192];
		struct nlmsghdr align;
	} u;
	struct nlmsghdr *h;
	ssize_t n;

	for (;;) {
		n = recv(fd, u.b, sizeof(u.b), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		for (h = &u.align; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			struct nlmsgerr *e = NLMSG_DATA(h);

			if (h->nlmsg_seq != seq || h->nlmsg_type != NLMSG_ERROR)
				continue;
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return EPROTO;
			return -e->error;
		}
	}
}

int main(int argc, char **argv)
{
	union {
		char b[MSG_SIZE];
		struct nlmsghdr align;
	} u;
	struct nlmsghdr *h = &u.align;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 10 };
	unsigned seq = 1;
	int fd, err;

	if (argc != 3) {
		fprintf(stderr, "usage: rxe-add IBDEV NETDEV\n");
		return 2;
	}
	memset(&u, 0, sizeof(u));
	h->nlmsg_len = NLMSG_HDRLEN;
	h->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_NEWLINK);
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	h->nlmsg_seq = seq;
	if (put_str(h, sizeof(u), RDMA_NLDEV_ATTR_DEV_NAME, argv[1]) < 0 ||
	    put_str(h, sizeof(u), RDMA_NLDEV_ATTR_LINK_TYPE, "rxe") < 0 ||
	    put_str(h, sizeof(u), RDMA_NLDEV_ATTR_NDEV_NAME, argv[2]) < 0) {
		fprintf(stderr, "rxe-add: names too long\n");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (fd < 0) {
		fprintf(stderr, "rxe-add: socket: %s\n", strerror(errno));
		return 1;
	}
	/* a kernel that never answers must not hang the guest */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    sendto(fd, h, h->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		fprintf(stderr, "rxe-add: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	err = read_ack(fd, seq);
	close(fd);
	if (err) {
		fprintf(stderr, "rxe-add: %s type rxe netdev %s: %s\n",
			argv[1], argv[2], strerror(err));
		return 1;
	}
	return 0;
}

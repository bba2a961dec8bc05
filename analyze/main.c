/* rdma-analyze: placeholder until the analyzer issue lands */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf("rdma-analyze %s\n", VERSION);
		return 0;
	}
	fprintf(stderr, "rdma-analyze: not implemented yet\n");
	return 2;
}

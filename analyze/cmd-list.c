/* cmd-list: `rdma-analyze list BUNDLE...`, what the analyzer itself reads
 * in a bundle (the same reader, breader, the same limits), entry by entry,
 * sorted by path; the entries it leaves out are counted. */
#include <stdio.h>

#include "analyze.h"
#include "breader.h"
#include "buf.h"
#include "import.h"
#include "json.h"
#include "log.h"

static const char usage_text[] =
"usage: rdma-analyze list [-f text|json] BUNDLE...\n"
"\n"
"Read each bundle as the analyzer does (the same limits; unsafe paths,\n"
"hard links, devices and FIFOs left out and counted) and print its\n"
"entries, sorted by path.\n"
"  -f, --format F   text (default) or json: an array of {bundle,\n"
"                   format_version, entries [{type, size, path, target}],\n"
"                   left_out}\n"
"  --json           the same as --format json\n"
"\n"
"Exit status: 0 listed; 3 usage error; 4 a bundle could not be read (the\n"
"others are still listed).\n";

static const struct option opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void list_text(const char *path, const struct bundle_r *b)
{
	size_t i;

	printf("%s: bundle format %d\n", path, b->format_version);
	for (i = 0; i < b->n; i++) {
		const struct br_entry *e = &b->v[i];

		if (e->type == BR_LINK)
			printf("  l %10s  %s -> %s\n", "", e->path, e->data);
		else
			printf("  %c %10zu  %s\n", e->type == BR_DIR ? 'd' : '-',
			       e->type == BR_DIR ? (size_t)0 : e->len, e->path);
	}
	if (b->ignored)
		printf("%s: %zu entries, %zu left out (unsafe paths, hard links, "
		       "devices, FIFOs, earlier copies of a path)\n", path,
		       b->n, b->ignored);
	else
		printf("%s: %zu entries\n", path, b->n);
}

static void list_json(struct json *j, const char *path,
		      const struct bundle_r *b)
{
	static const char *const type[] = {
		[BR_FILE] = "file", [BR_DIR] = "dir", [BR_LINK] = "link",
	};
	size_t i;

	json_obj_open(j, NULL);
	json_str(j, "bundle", path);
	json_int(j, "format_version", b->format_version);
	json_arr_open(j, "entries");
	for (i = 0; i < b->n; i++) {
		const struct br_entry *e = &b->v[i];

		json_obj_open(j, NULL);
		json_str(j, "type", type[e->type]);
		if (e->type == BR_FILE)
			json_uint(j, "size", e->len);
		json_str(j, "path", e->path);
		if (e->type == BR_LINK)
			json_str(j, "target", e->data);
		json_obj_close(j);
	}
	json_arr_close(j);
	json_uint(j, "left_out", b->ignored);
	json_obj_close(j);
}

/* one bundle, as text or into J; -1 when it cannot be read */
static int list_one(const char *path, struct json *j)
{
	struct bundle_r *b;
	char err[512];

	if (imp_or_br_open(path, NULL, &b, err, sizeof(err)) < 0) {
		error("%s: %s", path, err);
		return -1;
	}
	if (j)
		list_json(j, path, b);
	else
		list_text(path, b);
	br_free(b);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct buf out = BUF_INIT;
	struct json j;
	int c, i, f = FORMAT_TEXT, rc = EXIT_OK;

	optind = 1;
	while ((c = cmd_getopt("list", argc, argv, "+:f:h", opts)) != -1) {
		switch (c) {
		case 'f':
			if ((f = format_arg("list", optarg,
							 text_json_formats)) < 0)
				return EXIT_USAGE;
			break;
		case 'j': f = FORMAT_JSON; break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return usage_error("list", "which bundles?");
	if (f == FORMAT_JSON) {
		json_init(&j, &out, 1);
		json_arr_open(&j, NULL);
	}
	for (i = optind; i < argc; i++)
		if (list_one(argv[i], f == FORMAT_JSON ? &j : NULL) < 0)
			rc = EXIT_INPUT;
	if (f == FORMAT_JSON) {
		json_arr_close(&j);
		json_end(&j);
		fwrite(out.buf, 1, out.len, stdout);
		buf_release(&out);
	}
	return rc;
}

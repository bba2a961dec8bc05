/* report-html: what the page's files share (report-html.c writes the page;
 * report-html-pairs.c, report-html-fabric.c and report-html-history.c
 * draw its pictures of pairs, the fabric and counter histories).
 *
 * A picture is a function that writes one <figure> of inline SVG to
 * h->out and returns 1, or returns 0 when the report has nothing for it.
 * Every string from the database is hostile: it goes through html_esc()
 * (HTML text, attributes, SVG text) or html_frag() (a #node/rule link); no
 * style attributes (the CSP has no 'unsafe-inline').  While pictures are
 * drawn the temp table html_node(id, bundle_id) numbers the report's
 * nodes from 1 in the order of the page's data (D.nodes[id - 1]). */
#ifndef RDMA_ANALYZE_REPORT_HTML_H
#define RDMA_ANALYZE_REPORT_HTML_H

#include <sqlite3.h>
#include <stdio.h>

struct html {
	sqlite3 *db;
	FILE *out;
	int nodes;
};

/* HTML text or a quoted attribute value (inline SVG too) */
void html_esc(FILE *out, const char *s);
/* one part of a #node/rule fragment, percent-encoded */
void html_frag(FILE *out, const char *s);
/* <a href="#node/rule"> (either may be NULL or "") */
void html_link(FILE *out, const char *node, const char *rule);
/* an SVG <text>, cut to a label's length (the caller's <title> holds the
 * whole string) */
void html_text(FILE *out, double x, double y, const char *anchor,
	       const char *fill, const char *s);
/* the database has this table (a picture's data may predate its schema) */
int html_has_table(sqlite3 *db, const char *name);

/* the page's script and style sheet: analyze/report/report.js and
 * report.css as the Makefile embeds them ($(BUILD)/gen/report-assets.c) */
extern const char report_js[];
extern const char report_css[];

int pic_pairs(struct html *h);
int pic_fabric(struct html *h);
int pic_timelines(struct html *h);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel a boot log came from ("Linux version X.Y.Z ..." or, in the
 * curated logs, "kernel X.Y" in their '#' header) and the model its trace
 * is replayed with: the one that covers that release, else the nearest,
 * with the reason in one line (docs/mbt-format.md, "Machine-read comments").
 */
#include <string.h>

#include "import_int.h"

/* Which model stands for which releases (major * 1000 + minor, inclusive). */
static const struct era_row {
	unsigned from, to;
	const char *model;
	bool exact;
	const char *why;
} rows[] = {
	{ 7001, 7003, "reference", true, "reference models v7.1-v7.3" },
	{ 7004, 999999, "reference", false,
	  "newer than every model; reference models v7.3, the newest" },
	{ 6016, 7000, "reference", false,
	  "reference models v7.3; v6.16-v7.0 differ from it only in memblock_phys_free() "
	  "after slab is up (v7.1), which no imported trace reaches" },
	{ 6011, 6015, "mainline-6.12", true, "mainline-6.12 models v6.11-v6.15" },
	{ 0, 6010, "mainline-6.12", false,
	  "no model covers kernels before v6.11, mainline-6.12 (v6.11-v6.15) is the closest; "
	  "older ones keep a dummy region in an empty array and walk twice per add "
	  "(tests/algorithms/kernel-trees/known/5.10.known)" },
};

/* "6.1.54-rt15", "~6.7-rc", "v5.4.y": major and minor, or false. */
static bool major_minor(const char *s, unsigned *major, unsigned *minor)
{
	uint64_t a, b;

	if (*s == '~' || *s == 'v')
		s++;
	if (!mbd_imp_decnum(s, &a, &s) || *s != '.' || !mbd_imp_decnum(s + 1, &b, &s) ||
	    a == 0 || a > 99 || b > 999)
		return false;
	*major = (unsigned)a;
	*minor = (unsigned)b;
	return true;
}

void mbd_import_era(const char *version, struct mbd_era *e)
{
	unsigned key;
	size_t k = 0;

	memset(e, 0, sizeof(*e));
	if (!version || !major_minor(version, &e->major, &e->minor)) {
		snprintf(e->text, sizeof(e->text), "unknown");
		e->model = "reference";
		e->why = "the kernel is unknown; reference models v7.3, the newest";
		return;
	}
	/* the version as the log gives it, up to a blank, printable only */
	while (k + 1 < sizeof(e->text) && version[k] && version[k] != ' ' && version[k] != ',' &&
	       version[k] != ';' && version[k] != ')') {
		unsigned char c = (unsigned char)version[k];

		e->text[k++] = c > 0x20 && c < 0x7f && c != '#' ? (char)c : '?';
	}
	e->text[k] = '\0';
	key = e->major * 1000 + e->minor;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (key >= rows[i].from && key <= rows[i].to) {
			e->model = rows[i].model;
			e->exact = rows[i].exact;
			e->why = rows[i].why;
			return;
		}
	}
	e->model = "reference"; /* not reached: the rows cover every key */
	e->why = "reference models v7.3, the newest";
}

/* "kernel 6.4.0-rc1" (also "kernel ~6.7-rc", "kernel v5.4.y") inside s. */
static const char *header_version(const char *s)
{
	for (const char *p = strstr(s, "kernel "); p; p = strstr(p + 1, "kernel ")) {
		const char *v = mbd_imp_skip_ws(p + 7);
		unsigned a, b;

		if ((p == s || p[-1] == ' ' || p[-1] == '(' || p[-1] == ',') && major_minor(v, &a, &b))
			return v;
	}
	return NULL;
}

const struct line *mbd_imp_era_find(const struct line *ls, size_t lo, size_t hi,
				    struct mbd_era *e)
{
	const struct line *from = NULL;
	const char *v = NULL;

	for (size_t i = lo; i < hi && !v; i++) {
		if (ls[i].cls != L_HEADER && mbd_imp_starts(ls[i].s, "Linux version ")) {
			v = mbd_imp_skip_ws(ls[i].s + 14);
			from = &ls[i];
		}
	}
	for (size_t i = 0; i < hi && !v; i++) {
		if (ls[i].cls == L_HEADER && (v = header_version(ls[i].raw)) != NULL)
			from = &ls[i];
	}
	mbd_import_era(v, e);
	if (from && e->major) {
		e->line = from->no;
		e->from_header = from->cls == L_HEADER;
		return from;
	}
	return NULL;
}

void mbd_imp_era_head(struct obuf *b, const struct mbd_era *e, const char *src)
{
	if (e->line)
		mbd_imp_printf(b, "# kernel: %s (%s:%u: %s)\n", e->text, src, e->line,
			       e->from_header ? "the log's header comment" : "its Linux version line");
	else
		mbd_imp_printf(b, "# kernel: unknown (no \"Linux version\" line)\n");
	if (e->exact)
		mbd_imp_printf(b, "# model: %s (covers v%u.%u: %s)\n", e->model, e->major, e->minor,
			       e->why);
	else if (e->major)
		mbd_imp_printf(b, "# model: %s (nearest to v%u.%u: %s)\n", e->model, e->major,
			       e->minor, e->why);
	else
		mbd_imp_printf(b, "# model: %s (nearest: %s)\n", e->model, e->why);
}

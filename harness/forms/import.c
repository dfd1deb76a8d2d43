// SPDX-License-Identifier: GPL-2.0
/*
 * Boot-log importer. Every source line is kept as a comment; the lines that
 * describe memblock calls become ops, MEMBLOCK dumps become the starting
 * state or `expect` checkpoints, and memory maps stand in for the calls the
 * kernel made when there is no memblock=debug trace. The result is .mbt
 * text; the caller re-parses it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"
#include "mbd_escape.h"

/* Vote on the range convention from page-aligned starts and zero sizes. */
static enum mbd_import_conv detect(const struct line *ls, size_t n)
{
	long incl = 0, excl = 0;

	for (size_t i = 0; i < n; i++) {
		const char *p;
		uint64_t a, b;

		if (ls[i].cls != L_OP)
			continue;
		p = mbd_imp_skip_ws(ls[i].s + mbd_imp_op_name(ls[i].s) + 1);
		if (!mbd_imp_pair(p, "[", "-", &a, &b, &p))
			continue;
		if (b == a - 1)
			incl += 2;
		else if (b == a)
			excl += 1;
		else if (!(a & 0xfff) && (b & 0xfff) == 0xfff)
			incl++;
		else if (!(a & 0xfff) && !(b & 0xfff))
			excl++;
	}
	return excl > incl ? MBD_CONV_EXCLUSIVE : MBD_CONV_INCLUSIVE;
}

static bool added_memory(const struct line *ls, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ls[i].cls == L_OP && (mbd_imp_starts(ls[i].s, "memblock_add:") ||
					  mbd_imp_starts(ls[i].s, "memblock_add_node:")))
			return true;
	return false;
}

/* Does this line belong to the memory-source phase (no-trace logs)? */
static bool phase_a(const struct ictx *x, const struct line *l)
{
	return x->mem_src && (l->cls == x->mem_src || (x->mem_src == L_E820 && l->cls == L_E820UPD));
}

static void process(struct ictx *x, struct line *ls, size_t n, bool only_a)
{
	for (size_t i = 0; i < n; i++) {
		struct line *l = &ls[i];
		int r = 0;

		if (l->cls == L_HEADER) /* "# cat .../memblock/reserved" names a view */
			x->hint = mbd_imp_names_array(l);
		if (l->done || l->cls == L_BLANK || l->cls == L_HEADER)
			continue;
		if (only_a && !phase_a(x, l))
			continue;
		if (x->err[0])
			return;
		x->cur = l;
		l->done = 1;
		if (x->pending_trim && (l->cls == L_ALLOC || l->cls == L_DUMP || l->cls == L_DOUBLED ||
					(l->cls == L_OP && !strstr(l->s, " e820__memblock_setup"))))
			mbd_imp_flush_trim(x);
		switch (l->cls) {
		case L_OP:
			r = mbd_imp_do_op(x, l);
			break;
		case L_ALLOC:
			mbd_imp_comment(x, l, " (allocation request: the memblock_reserve it made follows)");
			x->st->alloc_requests++;
			break;
		case L_KNOWN:
		case L_NODEHDR:
			mbd_imp_comment(x, l, "");
			x->st->known++;
			break;
		case L_DOUBLED:
			r = mbd_imp_do_doubled(x, l);
			break;
		case L_E820:
			r = mbd_imp_do_e820(x, l);
			break;
		case L_OF:
			r = mbd_imp_do_of(x, l);
			break;
		case L_EFI:
			r = mbd_imp_do_efi(x, l);
			break;
		case L_NODE:
			r = mbd_imp_do_node(x, l);
			break;
		case L_DUMP:
			i = mbd_imp_dump(x, ls, n, i);
			break;
		case L_STATE:
			i = mbd_imp_state(x, ls, n, i);
			break;
		case L_E820UPD:
			r = mbd_imp_do_e820_update(x, l);
			break;
		case L_FREEING:
			r = mbd_imp_do_freeing(x, l);
			break;
		case L_MEMINFO:
			r = mbd_imp_do_meminfo(x, l);
			break;
		default:
			mbd_imp_unparsed(x, l);
			break;
		}
		if (r)
			mbd_imp_unparsed(x, l);
		/* a debugfs view is named by the line before it ("cat .../reserved") */
		if (l->cls != L_STATE)
			x->hint = mbd_imp_names_array(l);
	}
}

/* Names as comments show them: one line, printable, at most NAME_MAX_SHOWN bytes. */
#define NAME_MAX_SHOWN 200
#define NAME_BUF (4 * NAME_MAX_SHOWN + 4)

/* The kernel's initial array sizes: the caller's, else half the size of
 * the first "is doubled to N" of each array, else 128. */
static void init_sizes(struct mbd_config *cfg, const struct line *ls, size_t n,
		       const struct mbd_import_opts *o, struct obuf *note)
{
	uint64_t first[2] = { 0, 0 };

	for (size_t i = 0; i < n; i++) {
		const char *p;
		uint64_t v;
		int t;

		if (ls[i].cls != L_DOUBLED)
			continue;
		t = mbd_imp_starts(ls[i].s + 10, "reserved") ? 1 : 0;
		p = strstr(ls[i].s, " is doubled to ");
		if (p && mbd_imp_decnum(p + 15, &v, &p) && v >= 2 && (!first[t] || v < first[t]))
			first[t] = v;
	}
	for (int t = 0; t < 2; t++) {
		uint32_t *m = t ? &cfg->reserved_max : &cfg->memory_max;
		uint32_t given = t ? o->reserved_max : o->memory_max;
		const char *nm = t ? "reserved" : "memory";

		if (given) {
			*m = given;
			mbd_imp_printf(note, "# %s starts with %u slots (mbdiff import --init-max)\n",
				       nm, given);
		} else if (first[t] && first[t] / 2 <= MBD_MAX_BOOT_REGIONS) {
			*m = (uint32_t)(first[t] / 2);
			mbd_imp_printf(note, "# %s starts with %u slots: the log says it was doubled "
				       "to %llu\n", nm, *m, (ull)first[t]);
		}
	}
}

int mbd_import(const struct mbd_import_src *srcs, size_t nsrc, const struct mbd_import_opts *opts,
	       char **out, size_t *out_len, struct mbd_import_stats *st, FILE *unp)
{
	enum mbd_import_conv conv = opts->conv;
	struct obuf sizes = { 0 };
	struct line *ls = NULL;
	char *names = NULL;
	size_t n = 0, cap = 0;
	struct ictx x;
	struct obuf head = { 0 };
	const struct line *era_line;
	struct line *all = NULL;
	size_t starts[MBD_IMPORT_MAX_BOOTS], nb, lo = 0, hi, n_all = 0;
	struct mbd_config cfg;
	bool has[L__COUNT] = { false };
	int rc = -1;

	memset(st, 0, sizeof(*st));
	memset(&x, 0, sizeof(x));
	mbd_iset_init(&x.rsv);
	mbd_iset_init(&x.nomap);
	mbd_iset_init(&x.removed);
	x.st = st;
	x.unparsed = unp;
	names = malloc(nsrc ? nsrc * NAME_BUF : 1);
	if (!names)
		goto out;
	for (size_t f = 0; f < nsrc; f++)
		mbd_escape_line(names + f * NAME_BUF, NAME_BUF, srcs[f].name, NAME_MAX_SHOWN);
	for (size_t f = 0; f < nsrc; f++) {
		const char *p = srcs[f].buf, *end = p + srcs[f].len;
		unsigned no = 0;

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *e = nl ? nl : end;
			struct line *l;

			no++;
			if (n == cap) {
				struct line *nls = realloc(ls, (cap = cap ? cap * 2 : 256) * sizeof(*ls));

				if (!nls)
					goto out;
				ls = nls;
			}
			l = &ls[n];
			memset(l, 0, sizeof(*l));
			if (e > p && e[-1] == '\r')
				e--;
			l->raw = malloc((size_t)(e - p) + 1);
			if (!l->raw)
				goto out;
			n++;
			memcpy(l->raw, p, (size_t)(e - p));
			l->raw[e - p] = '\0';
			/* NULs inside a line would hide its tail: make them visible */
			for (char *q = l->raw; q < l->raw + (e - p); q++)
				if (!*q)
					*q = '?';
			l->src = names + f * NAME_BUF;
			l->path = srcs[f].path ? srcs[f].path : srcs[f].name;
			l->no = no;
			l->s = mbd_imp_payload(l->raw);
			l->cls = l->raw[0] == '#' ? L_HEADER : mbd_imp_classify(l->s);
			p = nl ? nl + 1 : end;
		}
	}
	/* several boots: import the one asked for (0: the last) alone */
	nb = mbd_imp_boots(&x, ls, n, starts, MBD_IMPORT_MAX_BOOTS);
	st->boots = nb;
	if (!x.err[0] && opts->boot > nb)
		snprintf(x.err, sizeof(x.err), "%s: error: boot %u asked for, but the log holds %zu "
			 "boot%s", nsrc ? (srcs[0].path ? srcs[0].path : srcs[0].name) : "-",
			 opts->boot, nb, nb == 1 ? "" : "s");
	if (x.err[0]) {
		memcpy(st->error, x.err, sizeof(st->error));
		rc = -2;
		goto out;
	}
	st->boot = opts->boot ? opts->boot : nb;
	lo = starts[st->boot - 1];
	hi = st->boot < nb ? starts[st->boot] : n;
	if (hi > lo) {
		st->boot_first = ls[lo].no;
		st->boot_last = ls[hi - 1].no;
		st->boot_src = srcs[0].name;
		for (size_t f = 0; f < nsrc; f++)
			if (ls[lo].src == names + f * NAME_BUF)
				st->boot_src = srcs[f].name;
	}
	for (size_t i = lo; i < hi; i++) {
		has[ls[i].cls] = true;
		if (ls[i].cls != L_BLANK && ls[i].cls != L_HEADER)
			st->lines++;
	}
	all = ls;
	n_all = n;
	if (ls) /* an empty log has no lines at all */
		ls += lo;
	n = hi - lo;
	if (mbd_imp_views(ls, n))
		goto out;
	x.trace = has[L_OP] || has[L_ALLOC];
	x.e820_cut = mbd_imp_e820_cut(ls, n);
	x.page = mbd_imp_page_size(ls, n);
	for (size_t i = 0; i < n && !x.e820_user; i++)
		x.e820_user = ls[i].cls == L_E820 && mbd_imp_starts(ls[i].s, "user: ");
	era_line = mbd_imp_era_find(all, lo, lo + n, &st->era);
	/* A map stands in for memory only when no memblock_add was traced. */
	x.mem_src = added_memory(ls, n) ? 0 : has[L_E820] ? L_E820 : has[L_EFI] ? L_EFI : has[L_NODE] ? L_NODE : 0;
	st->conv_auto = conv == MBD_CONV_AUTO;
	x.conv = st->conv = conv == MBD_CONV_AUTO ? detect(ls, n) : conv;

	mbd_config_default(&cfg);
	if (has[L_DOUBLED])
		cfg.resize = true; /* the log shows the arrays growing */
	init_sizes(&cfg, ls, n, opts, &sizes);
	x.max[0] = cfg.memory_max;
	x.max[1] = cfg.reserved_max;
	if (x.mem_src) {
		process(&x, ls, n, true);
		mbd_imp_printf(&x.body, "# end of the memory map%s\n",
			  x.mem_src == L_E820 ? " (e820__memblock_setup trims memory to whole pages)" : "");
		if (x.mem_src == L_E820) {
			mbd_imp_printf(&x.body, "memblock_trim_memory: 0x1000\n");
			x.ops++;
			st->ops++;
		}
	}
	process(&x, ls, n, false);
	mbd_imp_flush_trim(&x);
	if (x.body.oom || x.pre.oom || x.cov[0].oom || x.cov[1].oom || sizes.oom)
		goto out;
	if (x.err[0]) {
		memcpy(st->error, x.err, sizeof(st->error));
		rc = -2;
		goto out;
	}

	mbd_imp_printf(&head, "# imported by mbdiff import from");
	for (size_t f = 0; f < nsrc; f++) {
		if (head.len > 2000) {   /* one comment line, within the 4096-byte limit */
			mbd_imp_printf(&head, " ... (%zu logs)", nsrc);
			break;
		}
		mbd_imp_printf(&head, " %s", names + f * NAME_BUF);
	}
	mbd_imp_printf(&head, "\n");
	mbd_imp_era_head(&head, &st->era, era_line ? era_line->src : "");
	if (nb > 1 && n)
		mbd_imp_printf(&head, "# boot %u of %zu in the log (%s:%u-%u; %s)\n",
			       st->boot, nb, ls[0].src, st->boot_first, st->boot_last,
			       mbd_import_boot_rule(st));
	mbd_imp_printf(&head, "# range convention: %s (%s)\n",
		  st->conv == MBD_CONV_EXCLUSIVE ? "exclusive end" : "inclusive end",
		  st->conv_auto ? "detected" : "forced");
	mbd_imp_printf(&head, "# source: %s%s\n", x.trace ? "memblock=debug call trace, " : "",
		  x.trace && !x.mem_src ? "" :
		  x.mem_src == L_E820 ? "x86 e820 map (no memblock_add traced: memory calls synthesized)" :
		  x.mem_src == L_EFI ? "EFI memory map (no memblock_add traced: memory calls synthesized)" :
		  x.mem_src == L_NODE ? "Early memory node ranges (no memblock_add traced: memory calls synthesized)" :
		  x.trace ? " (no memory map)" : "no call trace and no memory map");
	/* the log's notes: those of this boot and every one before it */
	for (size_t i = 0; i < lo + n; i++) {
		if (all[i].cls != L_HEADER)
			continue;
		for (char *q = all[i].raw; *q; q++)
			if (!(((unsigned char)*q >= 0x20 && (unsigned char)*q <= 0x7e) || *q == '\t'))
				*q = '?';
		mbd_imp_printf(&head, "# | %.3000s\n", all[i].raw + 1);
	}
	mbd_imp_printf(&head, "# lines %zu: %zu calls traced, %zu allocation requests (not replayed: "
		  "their reservations are), %zu map entries, %zu dumps, %zu checkpoints, "
		  "%zu other recognised, %zu not imported\n", st->lines, st->traced,
		  st->alloc_requests, st->map_entries, st->dumps, st->checkpoints, st->known,
		  st->unparsed);
	mbd_imp_printf(&head, "%.*s", (int)sizes.len, sizes.p ? sizes.p : "");
	mbd_text_format_config(x.tmp, sizeof(x.tmp), &cfg);
	mbd_imp_printf(&head, "%s\n", x.tmp);
	mbd_imp_printf(&head, "%.*s", (int)x.pre.len, x.pre.p ? x.pre.p : "");
	mbd_imp_printf(&head, "%.*s", (int)x.body.len, x.body.p ? x.body.p : "");
	if (head.oom)
		goto out;
	*out = head.p;
	*out_len = head.len;
	head.p = NULL;
	rc = 0;
out:
	if (all) {
		ls = all;
		n = n_all;
	}
	for (size_t i = 0; i < n; i++)
		free(ls[i].raw);
	free(ls);
	free(x.body.p);
	free(x.pre.p);
	free(sizes.p);
	free(head.p);
	free(names);
	mbd_imp_cover_free(&x.cov[0]);
	mbd_imp_cover_free(&x.cov[1]);
	mbd_iset_free(&x.rsv);
	mbd_iset_free(&x.nomap);
	mbd_iset_free(&x.removed);
	return rc;
}

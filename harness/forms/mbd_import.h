/* SPDX-License-Identifier: GPL-2.0 */
/* Boot-log importer: dmesg text (memblock=debug, memory maps, MEMBLOCK dumps,
 * debugfs memblock arrays) into .mbt text. See docs/real-boots.md and
 * `mbdiff import --help`. */
#ifndef MBD_IMPORT_H
#define MBD_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mbd_text.h"

#define MBD_IMPORT_ERROR_MAX 4608

enum mbd_import_conv { MBD_CONV_AUTO = 0, MBD_CONV_INCLUSIVE, MBD_CONV_EXCLUSIVE };

struct mbd_import_src {
	const char *name;      /* shown in comments (escaped there) */
	const char *buf;
	size_t len;
	const char *path;      /* named in errors (NULL: name) */
};

/* The kernel a log came from and the model its trace replays with. */
struct mbd_era {
	unsigned major, minor;  /* 0.0: unknown */
	char text[64];          /* the version as the log gives it, or "unknown" */
	unsigned line;          /* the source line it was read from (0: none) */
	bool from_header;       /* from a '#' header comment, not "Linux version" */
	const char *model;      /* a variant name (`mbdiff list`) */
	bool exact;             /* the model covers this release (else: the nearest) */
	const char *why;        /* one line: what the model covers, how it differs */
};

/* The era of a version text ("6.1.54-rt15", "~6.7-rc", "v5.4.y"; NULL or
 * unreadable: unknown, replayed with the newest model). */
void mbd_import_era(const char *version, struct mbd_era *e);

struct mbd_import_stats {
	size_t lines;          /* non-blank source lines */
	size_t ops;            /* ops written */
	size_t traced;         /* memblock=debug call lines imported as ops */
	size_t alloc_requests; /* allocation request lines (their reserve follows) */
	size_t dumps;          /* MEMBLOCK configuration dumps */
	size_t checkpoints;    /* expect head lines written */
	size_t map_entries;    /* e820/EFI/OF/node-range lines turned into ops */
	size_t known;          /* recognised lines that need no op */
	size_t unparsed;       /* lines nothing recognised */
	enum mbd_import_conv conv; /* the convention used */
	int conv_auto;         /* 1 if it was detected */
	struct mbd_era era;    /* the kernel, and the model written in "# model:" */
	size_t boots;          /* boots found in the log (import_boots.c) */
	size_t boot_dumps;     /* of them, begun by a dump unlike the one before */
	unsigned boot;         /* the one imported, 1-based */
	const char *boot_src;  /* the log it starts in (a srcs[] name) ... */
	unsigned boot_first, boot_last; /* ... and its first and last line numbers */
	/* "PATH:LINE: error: what" when mbd_import returns -2 (room for a long path) */
	char error[MBD_IMPORT_ERROR_MAX];
};

struct mbd_import_opts {
	enum mbd_import_conv conv;
	/* the kernel's initial array sizes (0: from the log, else 128), e.g.
	 * arm64's INIT_MEMBLOCK_RESERVED_REGIONS = 128 + NR_CPUS + 1 */
	uint32_t memory_max, reserved_max;
	/* which boot of a log holding several to import, 1-based (0: the last) */
	unsigned boot;
};

/* At most this many boots in one import (more: an error). */
#define MBD_IMPORT_MAX_BOOTS 256

/*
 * Import n logs (read in order; when they hold several boots, the one
 * opts->boot names, st->boots says how many) into a malloc'd .mbt text in
 * *out. unparsed, if non-NULL, gets one "NAME:LINE: text" line per
 * unrecognised source line. Every value written is range-checked by the
 * .mbt parser's own rules at the log line it comes from. Returns 0, -1 (out
 * of memory), or -2 when the log cannot be imported faithfully (st->error
 * says where and why: "PATH:LINE: error: what").
 */
int mbd_import(const struct mbd_import_src *srcs, size_t n, const struct mbd_import_opts *opts,
	       char **out, size_t *out_len, struct mbd_import_stats *st, FILE *unparsed);

/* What starts a boot, for the output: the rules that split this log. */
const char *mbd_import_boot_rule(const struct mbd_import_stats *st);

#endif

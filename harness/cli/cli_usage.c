// SPDX-License-Identifier: GPL-2.0
/*
 * The help texts of the `mbdiff` commands, one entry a built-in command:
 * `mbdiff help` prints them all with the table of script commands,
 * `mbdiff help CMD` and `mbdiff CMD --help` only CMD's (scripts/man.sh
 * turns the same text into the man pages).
 */
#include <string.h>

#include "mbd_cli.h"

static const struct {
	const char *name;
	bool variants;	/* takes --variants: the notes on variants follow */
	const char *text;
} usages[] = {
	{ "list", false,
	  "  mbdiff list\n"
	  "      every variant in this binary: name, kind, the kernel it models or is,\n"
	  "      summary\n" },
	{ "replay", true,
	  "  mbdiff replay [--variants a,b,...] [--decoder structured|naive] [--no-oracle]\n"
	  "                [--min-class C] [--no-skip-baseline-faults] [--no-expect]\n"
	  "                [--verbose] [--quiet] [--narrow] [--svg FILE.svg] [--known FILE]\n"
	  "                FILE|DIR...\n"
	  "      run .mbt traces and libFuzzer/AFL++ crash files (directories are walked\n"
	  "      in name order); print a report for each divergence; --no-expect skips\n"
	  "      the traces' expect checkpoints (compare the variants only); --narrow\n"
	  "      prints each variant's result and arrays in <= 72 columns instead\n"
	  "      --svg (one input only): draw every variant's memory and reserved\n"
	  "      regions at the divergence (or at the end), differences in red\n"
	  "      --known FILE: a divergence whose signature FILE lists (known version\n"
	  "      differences, tests/algorithms/kernel-trees/known/) is one \"known:\" line, no report\n"
	  "      exit 1 if any input diverges (known ones aside), 0 if all agree, 2 on errors\n" },
	{ "convert", false,
	  "  mbdiff convert IN -o OUT [--to mbt|bin] [--decoder D]\n"
	  "      .mbt <-> fuzzer bytes, losslessly; OUT ending in .mbt is text, else binary\n" },
	{ "minimize", true,
	  "  mbdiff minimize IN -o OUT.mbt [--variants ...] [--decoder D] [--max-runs N]\n"
	  "                  [--fork] [--no-oracle] [--min-class C]\n"
	  "                  [--no-skip-baseline-faults] [--verbose]\n"
	  "      shrink a diverging input keeping its signature; --fork runs each\n"
	  "      candidate in a child so crashing inputs can be minimized\n"
	  "      exit 1 when a reproducer was written, 0 if IN does not diverge, 2 on errors\n" },
	{ "lift", true,
	  "  mbdiff lift --variants BASE,PATCHED [--slots N[,M]] [-o OUT] [--log]\n"
	  "              [--build-only base|patched [--scale 1|4|16|64]\n"
	  "              [--fillers above|below]] TRACE\n"
	  "      does TRACE's bug happen with the kernel's boot arrays (N-slot memory,\n"
	  "      M-slot reserved, default 128,128)? Rebuilds it there without\n"
	  "      randomness: filler regions far above its addresses (or below them,\n"
	  "      the trace moved up 16 GiB) give every array the free slots it had\n"
	  "      before each call; the first address scale (1, 4, 16, 64) and\n"
	  "      placement on which the judge names the same bug is kept in OUT;\n"
	  "      exit 0 reached, 1 not (the line says what the trace needs), 2 on\n"
	  "      errors or a trace without a bug (docs/check.md); --build-only: write\n"
	  "      the candidate (fillers after that side) without running the judge,\n"
	  "      for a trace that crashes a sanitizer build (replay it in a child)\n" },
	{ "emit-test", false,
	  "  mbdiff emit-test TRACE [-o FILE] [--name NAME] [--reference V]\n"
	  "                   [--patched V|none]\n"
	  "      print a C test for the kernel's tools/testing/memblock that replays\n"
	  "      TRACE and checks the reference's final arrays (docs/kernel-tests/);\n"
	  "      --patched (default: the second name of the trace's \"# variants:\")\n"
	  "      is run too, to say in the test whether it fails there\n" },
	{ "import", false,
	  "  mbdiff import LOG... -o TRACE.mbt [--convention inclusive|exclusive|auto]\n"
	  "                [--init-max memory=N,reserved=M] [--verbose]\n"
	  "      boot logs (dmesg, memblock=debug, e820/EFI/DT maps, MEMBLOCK dumps,\n"
	  "      debugfs memblock arrays) into a trace; dumps become expect checkpoints;\n"
	  "      --init-max: the kernel's initial array sizes (default: from the log's\n"
	  "      \"doubled to N\", else 128); --verbose lists the lines not imported\n"
	  "      (docs/real-boots.md); exit 2 when a checkpoint cannot be read\n" },
	{ "bench", true,
	  "  mbdiff bench [--variants a,b,...] [--reps N] [--csv FILE] [--evict-mib N]\n"
	  "               [--seed N] [--cpu N|--no-pin] [--layouts K] [FILE|DIR...]\n"
	  "      time the memblock calls alone (no snapshot, no oracle) of each trace\n"
	  "      (default: corpus/real) in every variant (default: all but the\n"
	  "      mutants, reference first), warm and cold, interleaved with the\n"
	  "      baseline in a shuffled order (--seed), pinned to one CPU (default:\n"
	  "      the one it starts on), N rounds (--reps, default 2000); the rounds\n"
	  "      are split over K fresh processes one after the other (default one\n"
	  "      per 20 rounds, 10 to 100), each with its own code, data and\n"
	  "      address placement; cold: code, statics and trace flushed, then N\n"
	  "      MiB swept (default 1; 64 here also evicts the page tables and the\n"
	  "      arena, but is far noisier);\n"
	  "      ratios to the baseline with 95% confidence intervals, a table on\n"
	  "      stdout, and with --csv one row per trace, variant and mode\n" },
	{ "explore", true,
	  "  mbdiff explore [--alphabet FILE] [--variants a,b] [--depth K] [--min-class C]\n"
	  "                 [-j N] [--time S] [--max-states N] [--checkpoint F]\n"
	  "                 [--resume F] [-o DIR] [--verify CERT] [--first] [--quiet]\n"
	  "                 [--no-merge]\n"
	  "      every trace of up to K calls (default 3) over the alphabet, breadth\n"
	  "      first, each joint state expanded once: the shortest trace of every\n"
	  "      divergence signature (into DIR), or a certificate that there is none\n"
	  "      (DIR/certificate.txt); --verify re-runs a certificate's search;\n"
	  "      --first stops after the first depth with a divergence; --no-merge\n"
	  "      expands every trace (slow; checks the state hash)\n"
	  "      --alphabet: default corpus/alphabets/default.alpha of the data dir\n"
	  "      (docs/explore.md); exit 1 on a divergence or a failed --verify,\n"
	  "      0 with a certificate, 2 on errors\n" },
	{ "judge", true,
	  "  mbdiff judge --variants BASE,PATCHED [--source NAME=FILE]... [--json]\n"
	  "               [--min-class C] TRACE...\n"
	  "      who breaks the API contract in each trace: the two in lockstep (a fault\n"
	  "      only BASE has counts), then each alone under its oracle; prints the kind\n"
	  "      (regression, fix, behaviour, both, shared, none) and the root-cause key\n"
	  "      bugs are grouped by (a BUG_ON site, quoted from --source, a contract\n"
	  "      clause and array, or what behaves differently); --json: one object a line\n" },
};

static const char usage_head[] =
	"usage: mbdiff <command> [options]\n"
	"       mbdiff help [COMMAND]    all commands, or COMMAND's help alone\n"
	"       mbdiff --version         release and git revision\n"
	"       mbdiff --data-dir        where corpus, algorithms and scripts are read\n";

static const char variants_notes[] =
	"  The first variant is the baseline. Default variants: reference,zhou-2025 if\n"
	"  both exist, else every reference and patch variant. Classes for --min-class:\n"
	"  warning capacity layout return invariant coverage panic crash; the default,\n"
	"  capacity, leaves out a difference in WARN counts alone (--min-class warning).\n"
	"  When the baseline itself hits BUG_ON() or fails the oracle, the input stops there\n"
	"  as a baseline fault (not a divergence; replay the baseline alone to see\n"
	"  it) unless --no-skip-baseline-faults. --count-baseline-faults: a fault only the\n"
	"  baseline has is a divergence (the other variant fixes it), one they share ends\n"
	"  the input as a baseline fault.\n";

void mbd_cli_usage(FILE *out)
{
	fputs(usage_head, out);
	for (size_t k = 0; k < sizeof(usages) / sizeof(usages[0]); k++)
		fprintf(out, "\n%s", usages[k].text);
	fprintf(out, "\n%s\n", variants_notes);
	mbd_cli_script_table(out);
}

int mbd_cli_usage_of(const char *cmd, FILE *out)
{
	for (size_t k = 0; k < sizeof(usages) / sizeof(usages[0]); k++) {
		if (strcmp(cmd, usages[k].name) != 0)
			continue;
		fprintf(out, "usage:\n%s", usages[k].text);
		if (usages[k].variants)
			fprintf(out, "\n%s", variants_notes);
		return 0;
	}
	return -1;
}

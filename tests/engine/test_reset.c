// SPDX-License-Identifier: GPL-2.0
/*
 * Reset is exact: for every variant in this build, a trace run after
 * another trace and a reset behaves exactly as in a fresh process (a child
 * exec'd for each variant and trace). And the kcompat arena: what an input
 * wrote reads as zero after reset, with the pages kept mapped (no page
 * fault when the next input writes there again). And the boot arrays: only
 * what was written is zeroed, and a write the bound missed is caught.
 */
#define _DEFAULT_SOURCE /* getrusage, MAP_ANONYMOUS in kcompat's header */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mbd_bin.h"
#include "mbd_kc_rt.h"
#include "mbd_test.h"
#include "mbd_text.h"
#include "mbd_variant.h"

/* Traces that write the boot arrays, arena arrays, the slab heap, warn and
 * panic; then random fuzzer bytes. */
static const char *const texts[] = {
	"config memory.max=1 reserved.max=1 resize=1\n"
	"memblock_add: [0x0000000100000000-0x00000001ffffffff]\n"
	"memblock_add: [0x0000000300000000-0x00000003ffffffff]\n"
	"memblock_add: [0x0000000500000000-0x00000005ffffffff]\n"
	"memblock_reserve: [0x0000000100000000-0x0000000100000fff]\n"
	"memblock_reserve: [0x0000000100100000-0x0000000100100fff]\n"
	"memblock_reserve: [0x0000000100200000-0x0000000100200fff]\n"
	"memblock_phys_alloc_range: 8192 bytes align=0x1000 from=0x0 max_addr=0x0\n"
	"memblock_remove: [0x0000000300000000-0x0000000300000fff]\n",

	"config memory.max=2 reserved.max=2 resize=1 slab=1\n"
	"memblock_add: [0x0000000000100000-0x00000000004fffff]\n"
	"memblock_add_node: [0x0000000000800000-0x00000000008fffff] nid=1 flags=0x0\n"
	"memblock_add: [0x0000000002000000-0x00000000020fffff]\n"
	"memblock_reserve: [0x0000000000100000-0x0000000000100fff]\n"
	"memblock_reserve: [0x0000000000300000-0x0000000000300fff]\n"
	"memblock_reserve: [0x0000000000400000-0x0000000000400fff]\n"
	"memblock_mark_hotplug: [0x0000000000800000-0x000000000080ffff]\n"
	"memblock_set_node: [0x0000000000100000-0x00000000001fffff] type=memory nid=0\n"
	"memblock_phys_free: [0x0000000000100000-0x0000000000100fff]\n",

	"config memory.max=3 reserved.max=3\n"
	"memblock_add: [0x0000000000100000-0x00000000001fffff]\n"
	"memblock_add: [0x0000000000300000-0x00000000003fffff]\n"
	"memblock_mark_nomap: [0x0000000000100000-0x0000000000100fff]\n"
	"memblock_phys_free: [0x0000000007000000-0x0000000007000fff]\n"
	"memblock_add: [0x0000000000500000-0x00000000005fffff]\n"
	"memblock_add: [0x0000000000700000-0x00000000007fffff]\n"
	"memblock_add: [0x0000000000900000-0x00000000009fffff]\n",

	"config\n"
	"memblock_add: [0x0000000000000000-0x00000000ffffffff]\n"
	"memblock_set_bottom_up: 1\n"
	"memblock_phys_alloc_try_nid: 4096 bytes align=0x1000 nid=1\n"
	"memblock_set_current_limit: 0x0000000001000000\n"
	"memblock_phys_alloc_range: 8192 bytes align=0x1000 from=0x0 max_addr=0x0\n"
	"memblock_trim_memory: 0x10000\n",
};

#define N_TEXT (sizeof(texts) / sizeof(texts[0]))
#define N_RANDOM 6
#define N_TRACES (N_TEXT + N_RANDOM)

static struct mbd_trace traces[N_TRACES];

static uint64_t rnd_state = 0x2545f4914f6cdd1dull;

static int load_traces(void)
{
	uint8_t bytes[240];

	for (size_t i = 0; i < N_TRACES; i++) {
		mbd_trace_init(&traces[i]);
		if (i < N_TEXT) {
			if (mbd_text_parse(texts[i], strlen(texts[i]), "<text>",
					   &traces[i], NULL))
				return -1;
			continue;
		}
		for (size_t b = 0; b < sizeof(bytes); b++)
			bytes[b] = (uint8_t)mbd_test_rnd(&rnd_state);
		mbd_bin_decode(bytes, sizeof(bytes), MBD_DECODER_STRUCTURED,
			       &traces[i]);
	}
	return 0;
}

static void mix(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		*h = (*h ^ c[i]) * 0x100000001b3ull;
}

static void mix_type(uint64_t *h, const struct mbd_type_state *t)
{
	mix(h, &t->cnt, sizeof(t->cnt));
	mix(h, &t->max, sizeof(t->max));
	mix(h, &t->total_size, sizeof(t->total_size));
	mix(h, &t->regions_pa, sizeof(t->regions_pa));
	mix(h, &t->regions_static, sizeof(t->regions_static));
	mix(h, &t->regions_slab, sizeof(t->regions_slab));
	mix(h, &t->empty_slot, sizeof(t->empty_slot));
	for (size_t i = 0; i < t->n_copied; i++) {
		mix(h, &t->regions[i].base, sizeof(t->regions[i].base));
		mix(h, &t->regions[i].size, sizeof(t->regions[i].size));
		mix(h, &t->regions[i].flags, sizeof(t->regions[i].flags));
		mix(h, &t->regions[i].nid, sizeof(t->regions[i].nid));
	}
}

/*
 * One run as the runner does it (reset, every op with a snapshot, reset
 * again after the run), hashed: return values, panics, both arrays with
 * their placement, warnings.
 */
static uint64_t run_hash(const struct mbd_variant *v, const struct mbd_trace *t)
{
	struct mbd_state s;
	struct mbd_result res;
	uint64_t h = 0xcbf29ce484222325ull;

	mbd_state_init(&s);
	v->reset(&t->cfg, 0);
	v->snapshot(&s);
	mix_type(&h, &s.memory);
	mix_type(&h, &s.reserved);
	for (size_t i = 0; i < t->n_ops; i++) {
		memset(&res, 0, sizeof(res));
		v->apply(&t->ops[i], &res);
		v->snapshot(&s);
		mix(&h, &res.ret, sizeof(res.ret));
		mix(&h, &res.panicked, sizeof(res.panicked));
		mix(&h, res.panic_msg, strlen(res.panic_msg));
		mix_type(&h, &s.memory);
		mix_type(&h, &s.reserved);
		mix(&h, &s.warnings, sizeof(s.warnings));
		if (res.panicked)
			break;
	}
	v->reset(&t->cfg, 0);
	mbd_state_free(&s);
	return h;
}

/* The hash of trace j on variant v in a process that ran nothing else. */
static int fresh_hash(const char *self, const char *name, size_t j,
		      uint64_t *h)
{
	char arg[32];
	int fd[2], status;
	pid_t pid;
	FILE *f;
	int ok;

	snprintf(arg, sizeof(arg), "%zu", j);
	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execl(self, self, "--fresh", name, arg, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	ok = f && fscanf(f, "%" SCNx64, h) == 1;
	if (f)
		fclose(f);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return ok ? 0 : -1;
}

static void check_variants(const char *self)
{
	for (size_t k = 0; k < mbd_variant_count(); k++) {
		const struct mbd_variant *v = mbd_variants[k];

		for (size_t j = 0; j < N_TRACES; j++) {
			uint64_t fresh, after;
			/* a different trace first, then j */
			size_t i = (j + 1 + k) % N_TRACES;

			if (i == j)
				i = (i + 1) % N_TRACES;
			if (fresh_hash(self, v->name, j, &fresh)) {
				MBD_CHECK(!"fresh child failed");
				continue;
			}
			run_hash(v, &traces[i]);
			after = run_hash(v, &traces[j]);
			if (after != fresh)
				fprintf(stderr, "%s: trace %zu after trace %zu differs from a fresh run\n",
					v->name, j, i);
			MBD_CHECK_EQ_U64(after, fresh);
			/* and again: a run leaves nothing for the next one */
			MBD_CHECK_EQ_U64(run_hash(v, &traces[j]), fresh);
		}
	}
}

static long minor_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* The arena alone: zeroed, kept mapped, bounded. */
static void check_arena(void)
{
	static struct mbd_kc_ctx c;
	const uint64_t pa = 0x123456789000ull & (MBD_KC_PHYS_LIMIT - 1);
	unsigned char *arr, *heap;
	long before;

	mbd_kc_reset(&c, "t", false, false, false, 0, 0);
	for (int round = 0; round < 3; round++) {
		arr = mbd_kc_va(&c, pa);
		heap = mbd_kc_kmalloc(&c, 3000, true);
		MBD_CHECK(arr && heap);
		if (!arr || !heap)
			return;
		/* what a fresh mapping reads, every round */
		MBD_CHECK(all_zero(arr, 6000));
		MBD_CHECK(all_zero(heap, 3000));
		before = minor_faults();
		memset(arr, 0xab, 6000);
		/* as the variant's memset does (kcompat.h) */
		memset(heap, 0xcd, 3000);
		mbd_kc_wrote(&c, heap, 3000);
		/* after the first round the pages are still mapped */
		if (round > 0)
			MBD_CHECK_EQ_U64(minor_faults() - before, 0);
		mbd_kc_reset(&c, "t", false, false, false, 0, 6000);
	}
	MBD_CHECK(all_zero(arr, 6000));
	MBD_CHECK(all_zero(heap, 3000));
	MBD_CHECK(!c.dirty);

	/* the sampled check reads only mapped heap pages: a 1 MiB block
	 * with one written page faults no others in (reading them all
	 * took 255 faults per check) */
	before = minor_faults();
	for (int i = 0; i < 2 * MBD_KC_HEAP_CHECK_EVERY; i++) {
		heap = mbd_kc_kmalloc(&c, 1 << 20, false);
		MBD_CHECK(heap != NULL);
		if (!heap)
			return;
		memset(heap + 4096, 0x42, 100);
		mbd_kc_wrote(&c, heap + 4096, 100);
		mbd_kc_reset(&c, "t", false, false, false, 0, 0);
	}
	MBD_CHECK(c.heap_checks >= 2 * MBD_KC_HEAP_CHECK_EVERY);
	MBD_CHECK(minor_faults() - before < 64);
	MBD_CHECK(!c.heap_full);
	MBD_CHECK(all_zero(c.arena + MBD_KC_PHYS_LIMIT, 1 << 20));

	/* a heap store nobody noted: caught by the sampled check, after
	 * which the whole used heap is zeroed at every reset */
	for (int i = 0; i <= MBD_KC_HEAP_CHECK_EVERY && !c.heap_full; i++) {
		heap = mbd_kc_kmalloc(&c, 5000, true);
		MBD_CHECK(heap != NULL);
		if (!heap)
			return;
		heap[4999] = 0x77;
		mbd_kc_reset(&c, "t", false, false, false, 0, 0);
	}
	MBD_CHECK(c.heap_full);
	MBD_CHECK(all_zero(c.arena + MBD_KC_PHYS_LIMIT, 5000));
	heap = mbd_kc_kmalloc(&c, 100, true);
	MBD_CHECK(heap != NULL && all_zero(heap, 100));
	if (heap)
		heap[50] = 1;
	mbd_kc_reset(&c, "t", false, false, false, 0, 0);
	MBD_CHECK(all_zero(c.arena + MBD_KC_PHYS_LIMIT, 5000));

	/* many distinct placements: the kept set stays bounded, all zero */
	for (uint64_t i = 0; i < 3 * MBD_KC_KEPT; i++) {
		arr = mbd_kc_va(&c, i << 24);
		memset(arr, 0x5a, 100 + i % 9000);
		mbd_kc_reset(&c, "t", false, false, false, 0, 100 + i % 9000);
		if (c.n_kept > MBD_KC_KEPT / 4 * 3 || c.kept_pages > MBD_KC_KEPT_PAGES)
			MBD_CHECK(!"the kept set outgrew its bounds");
	}
	for (uint64_t i = 0; i < 3 * MBD_KC_KEPT; i++)
		if (!all_zero(c.arena + (i << 24), 100 + i % 9000))
			MBD_CHECK(!"a kept or released range is not zero");
}

/*
 * The boot arrays: reset zeroes what was noted; a write nobody noted is
 * caught by the sampled check (then whole arrays are zeroed) and aborts
 * at once under MBDIFF_RESET_CHECK.
 */
static void check_boot(void)
{
	static struct mbd_kc_ctx c;
	static unsigned char a[2][4800], elsewhere[64];
	int status = 0;
	pid_t pid;

	c.name = "t";
	mbd_kc_boot_watch(&c, 0, a[0], sizeof(a[0]));
	mbd_kc_boot_watch(&c, 1, a[1], sizeof(a[1]));
	c.reset_strict = false;
	/* the config's max: the check reads no further */
	mbd_kc_boot_limit(&c, 1, 4200);
	memset(a[0] + 240, 0x11, 48);
	mbd_kc_wrote(&c, a[0] + 240, 48);
	memset(a[1], 0x22, 24);
	mbd_kc_wrote(&c, a[1], 24);
	MBD_CHECK_EQ_U64(c.boot_end[0], 288);
	/* outside both arrays: not noted */
	mbd_kc_wrote(&c, elsewhere, 24);
	MBD_CHECK_EQ_U64(c.boot_end[1], 24);
	/* the glue's note of a count: grows the bound, never past the array */
	mbd_kc_boot_wrote(&c, 1, 96);
	MBD_CHECK_EQ_U64(c.boot_end[1], 96);
	mbd_kc_boot_wrote(&c, 1, 48);
	MBD_CHECK_EQ_U64(c.boot_end[1], 96);
	mbd_kc_boot_wrote(&c, 1, sizeof(a[1]) + 24);
	MBD_CHECK_EQ_U64(c.boot_end[1], sizeof(a[1]));
	mbd_kc_boot_reset(&c);
	MBD_CHECK(all_zero(a[0], sizeof(a[0])) && all_zero(a[1], sizeof(a[1])));
	MBD_CHECK_EQ_U64(c.boot_end[0], 0);
	MBD_CHECK(!c.boot_full);

	/* a stray store past anything noted */
	a[1][4000] = 0x33;
	for (int i = 0; i < MBD_KC_BOOT_CHECK_EVERY; i++)
		mbd_kc_boot_reset(&c);
	MBD_CHECK(c.boot_full);
	MBD_CHECK(all_zero(a[1], sizeof(a[1])));
	/* past the config's max nothing is looked for */
	a[1][4500] = 0x55;
	c.boot_full = false;
	for (int i = 0; i < MBD_KC_BOOT_CHECK_EVERY; i++)
		mbd_kc_boot_reset(&c);
	MBD_CHECK(!c.boot_full);
	a[1][4500] = 0;
	c.boot_full = true;
	a[0][4700] = 0x44;
	mbd_kc_boot_reset(&c);
	MBD_CHECK(all_zero(a[0], sizeof(a[0])));

	/* strict: the first reset after the stray store aborts */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		c.boot_full = false;
		c.reset_strict = true;
		a[0][100] = 1;
		mbd_kc_boot_reset(&c);
		_exit(0);
	}
	MBD_CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	MBD_CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

int main(int argc, char **argv)
{
	if (load_traces()) {
		fprintf(stderr, "test_reset: cannot build the traces\n");
		return 2;
	}
	if (argc == 4 && strcmp(argv[1], "--fresh") == 0) {
		const struct mbd_variant *v = mbd_variant_find(argv[2]);
		size_t j = strtoul(argv[3], NULL, 10);

		if (!v || j >= N_TRACES)
			return 2;
		printf("%" PRIx64 "\n", run_hash(v, &traces[j]));
		return 0;
	}
	check_arena();
	check_boot();
	check_variants("/proc/self/exe");
	printf("%zu variants, %zu traces\n", mbd_variant_count(), (size_t)N_TRACES);
	return mbd_test_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * layout-gen: seeded, reproducible, named memory layouts for the boot lab
 * (scripts/boot-lab.sh, docs/boot-lab.md).
 *
 *   layout-gen --arch arm64|amd64 --seed S --count N [--reserved-init R]
 *              --out DIR
 *
 * writes DIR/NAME.layout for layouts 0..N-1 (and DIR/NAME.dtsi on arm64).
 * Layout i depends only on (arch, seed, i, R): adding layouts never changes
 * the earlier ones. A .layout file is "key value" lines:
 *   name    arm64-03-numa         (arch, index, kind)
 *   mem     2048                  (-m, MiB)
 *   qemu    ...                   (extra QEMU arguments, x86 NUMA)
 *   append  ...                   (extra kernel command line)
 *   summary banks=3 nodes=2 ...   (what the layout holds)
 * The .dtsi holds /memreserve/ lines, then one "/ { ... };" block that the
 * lab merges over QEMU's own virt device tree (dtc merges nodes of the same
 * path, so the block replaces the memory node and adds reserved-memory).
 *
 * arm64 RAM is QEMU's: one range from 0x40000000 of "mem" MiB. QEMU loads
 * the kernel at +2 MiB, the initrd at +128 MiB and the DTB after it, so the
 * first 192 MiB always stay memory and nothing generated touches them;
 * generated banks, holes and reservations lie above.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB ((uint64_t)1024 * 1024)
#define ARM_RAM ((uint64_t)0x40000000)
#define ARM_SAFE (192 * MIB) /* kernel, initrd, DTB */
#define MAX_BANKS 160
#define MAX_RMEM 16

struct rng {
	uint64_t s;
};

/* splitmix64: small, fast and the same on every host */
static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [lo, hi] */
static uint64_t rng_range(struct rng *r, uint64_t lo, uint64_t hi)
{
	return hi <= lo ? lo : lo + rng_next(r) % (hi - lo + 1);
}

static uint64_t align_down(uint64_t v, uint64_t a)
{
	return v & ~(a - 1);
}

struct bank {
	uint64_t base, size;
	int nid;
};

struct layout {
	char name[64];
	const char *kind;
	uint64_t mem_mib;
	struct bank banks[MAX_BANKS];
	int n_banks, n_nodes, one_node_many_regs, distance_map;
	unsigned n_memreserve;
	uint64_t memreserve_base, memreserve_step, memreserve_size;
	FILE *dtsi;
	char summary[256];
};

static const char *const arm_kinds[] = {
	"plain", "banks", "numa", "rmem", "memreserve", "mixed", "nomap", "double",
	"plain", "banks", "numa", "double-mixed", "memreserve", "mixed", "nomap", "double",
};
static const char *const x86_kinds[] = {
	"plain", "numa", "memmap", "mem", "mixed", "pmem", "numa-memmap", "acpi",
	"plain", "numa", "memmap", "mem", "mixed", "pmem", "numa-memmap", "acpi",
};
#define N_KINDS 16

/* Splits [from, to) into n banks with random holes between them. */
static void gen_banks(struct layout *l, struct rng *r, uint64_t from, uint64_t to, int n,
		      uint64_t align)
{
	uint64_t cur = from;

	for (int i = 0; i < n && cur < to && l->n_banks < MAX_BANKS; i++) {
		uint64_t left = to - cur, share = left / (uint64_t)(n - i);
		uint64_t hole = align_down(rng_range(r, 0, share / 4), align);
		uint64_t size = align_down(rng_range(r, share / 4, share - hole), align);

		if (size < align)
			size = align;
		if (cur + hole + size > to)
			break;
		l->banks[l->n_banks++] = (struct bank){ cur + hole, size, 0 };
		cur += hole + size;
	}
}

static void assign_nodes(struct layout *l, int nodes)
{
	/* consecutive banks share a node; bank 0 (the kernel's) is node 0 */
	if (nodes > l->n_banks)
		nodes = l->n_banks;
	l->n_nodes = nodes;
	for (int i = 0; i < l->n_banks; i++)
		l->banks[i].nid = (int)((uint64_t)i * (uint64_t)nodes / (uint64_t)l->n_banks);
}

static void dt_cells(FILE *f, uint64_t base, uint64_t size)
{
	fprintf(f, "<0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 ">",
		base >> 32, base & (uint64_t)0xffffffff, size >> 32, size & (uint64_t)0xffffffff);
}

static void dt_memory(struct layout *l)
{
	FILE *f = l->dtsi;

	fprintf(f, "\t/delete-node/ memory@40000000;\n");
	if (l->one_node_many_regs) {
		/* one memory node whose reg lists every bank */
		fprintf(f, "\tmemory@40000000 {\n\t\tdevice_type = \"memory\";\n\t\treg = ");
		for (int i = 0; i < l->n_banks; i++) {
			fprintf(f, "%s", i ? ",\n\t\t      " : "");
			dt_cells(f, l->banks[i].base, l->banks[i].size);
		}
		fprintf(f, ";\n\t};\n");
		return;
	}
	for (int i = 0; i < l->n_banks; i++) {
		fprintf(f, "\tmemory@%" PRIx64 " {\n\t\tdevice_type = \"memory\";\n\t\treg = ",
			l->banks[i].base);
		dt_cells(f, l->banks[i].base, l->banks[i].size);
		fprintf(f, ";\n");
		if (l->n_nodes > 1)
			fprintf(f, "\t\tnuma-node-id = <%d>;\n", l->banks[i].nid);
		fprintf(f, "\t};\n");
	}
	if (l->n_nodes > 1) {
		fprintf(f, "\tcpus {\n\t\tcpu@0 {\n\t\t\tnuma-node-id = <0>;\n\t\t};\n\t};\n");
		if (l->distance_map) {
			fprintf(f, "\tdistance-map {\n\t\tcompatible = \"numa-distance-map-v1\";\n"
				   "\t\tdistance-matrix = ");
			for (int a = 0; a < l->n_nodes; a++)
				for (int b = 0; b < l->n_nodes; b++)
					fprintf(f, "%s<%d %d %d>", a || b ? ", " : "", a, b,
						a == b ? 10 : 20 + 5 * abs(a - b));
			fprintf(f, ";\n\t};\n");
		}
	}
}

/* The free zone for generated reservations: above the kernel's 192 MiB and
 * below the top 320 MiB, where the kernel's own allocations and CMA go. */
static void free_zone(const struct layout *l, uint64_t *lo, uint64_t *hi)
{
	*lo = ARM_RAM + ARM_SAFE + 64 * MIB;
	*hi = ARM_RAM + l->mem_mib * MIB - 320 * MIB;
}

/* A random place for SIZE bytes inside one bank, within [lo, hi). */
static int zone_in_bank(const struct layout *l, struct rng *r, uint64_t size, uint64_t lo,
			uint64_t hi, uint64_t *base)
{
	int start = (int)rng_range(r, 0, (uint64_t)l->n_banks - 1);

	for (int t = 0; t < l->n_banks; t++) {
		const struct bank *b = &l->banks[(start + t) % l->n_banks];
		uint64_t from = b->base > lo ? b->base : lo;
		uint64_t to = b->base + b->size < hi ? b->base + b->size : hi;

		if (to > from && to - from >= size + 4 * MIB) {
			*base = rng_range(r, from + 4 * MIB, to - size - 4 * MIB > from + 4 * MIB ?
					  to - size - 4 * MIB : from + 4 * MIB);
			return 1;
		}
	}
	return 0;
}

static int dt_rmem(struct layout *l, struct rng *r, int n, int nomap_bias)
{
	FILE *f = l->dtsi;
	uint64_t lo, hi, prev_base = 0, prev_size = 0;
	int kinds[6] = { 0 };

	free_zone(l, &lo, &hi);
	fprintf(f, "\treserved-memory {\n\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n"
		   "\t\tranges;\n");
	for (int i = 0; i < n; i++) {
		int k = (int)rng_range(r, 0, 5 + nomap_bias);
		uint64_t align = rng_range(r, 0, 2) ? 0x1000 : 0x10000;
		uint64_t size = align_down(rng_range(r, 0x1000, 8 * MIB), align) + align;
		uint64_t base;

		/* inside one bank above the kernel's: CMA and no-map regions in
		 * a hole crash 6.1 in cma_init_reserved_areas() */
		if (!zone_in_bank(l, r, size, lo, hi, &base))
			continue;
		base = align_down(base, align);

		if (k > 5)
			k = 1; /* extra weight on no-map */
		if (k == 4 && prev_size) { /* overlaps the previous one */
			base = prev_base + align_down(prev_size / 2, 0x1000);
			size = prev_size;
		}
		if (k == 2) { /* reusable CMA pools need 4 MiB alignment */
			size = align_down(size, 4 * MIB) + 4 * MIB;
			base = align_down(base, 4 * MIB);
		}
		kinds[k]++;
		if (k == 3) { /* dynamic: allocated by the kernel in a range */
			fprintf(f, "\t\tdyn%d {\n\t\t\tsize = <0x0 0x%" PRIx64 ">;\n"
				   "\t\t\talignment = <0x0 0x%" PRIx64 ">;\n\t\t\talloc-ranges = ",
				i, size, align);
			dt_cells(f, align_down(base, MIB), 64 * MIB);
			fprintf(f, ";\n\t\t};\n");
			continue;
		}
		fprintf(f, "\t\trmem%d@%" PRIx64 " {\n\t\t\treg = ", i, base);
		dt_cells(f, base, size);
		fprintf(f, ";\n");
		if (k == 1)
			fprintf(f, "\t\t\tno-map;\n");
		if (k == 2)
			fprintf(f, "\t\t\tcompatible = \"shared-dma-pool\";\n\t\t\treusable;\n");
		fprintf(f, "\t\t};\n");
		prev_base = base;
		prev_size = size;
	}
	fprintf(f, "\t};\n");
	return snprintf(l->summary + strlen(l->summary), sizeof(l->summary) - strlen(l->summary),
			" rmem=%d(reg=%d,nomap=%d,reusable=%d,dynamic=%d,overlap=%d)", n,
			kinds[0] + kinds[5], kinds[1], kinds[2], kinds[3], kinds[4]);
}

static void add_summary(struct layout *l, const char *fmt, unsigned v)
{
	size_t n = strlen(l->summary);

	snprintf(l->summary + n, sizeof(l->summary) - n, fmt, v);
}

static FILE *open_out(const char *dir, const char *name, const char *ext)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

static void gen_arm64(struct layout *l, struct rng *r, unsigned reserved_init, const char *dir)
{
	static const uint64_t sizes[] = { 1024, 1536, 2048, 3072 };
	const char *k = l->kind;
	uint64_t ram_end, lo, hi;
	int banks = 1, nodes = 1, rmem = 0, nomap_bias = 0;

	l->mem_mib = sizes[rng_range(r, 0, 3)];
	ram_end = ARM_RAM + l->mem_mib * MIB;
	if (!strcmp(k, "banks") || !strcmp(k, "mixed") || !strcmp(k, "double-mixed"))
		banks = (int)rng_range(r, 2, 6);
	if (!strcmp(k, "numa") || !strcmp(k, "mixed")) {
		banks = (int)rng_range(r, 2, 5);
		nodes = (int)rng_range(r, 2, banks < 4 ? banks : 4);
	}
	if (!strcmp(k, "rmem") || !strcmp(k, "mixed") || !strcmp(k, "nomap"))
		rmem = (int)rng_range(r, 2, MAX_RMEM);
	if (!strcmp(k, "double-mixed"))
		rmem = (int)rng_range(r, 2, 6);
	if (!strcmp(k, "nomap"))
		nomap_bias = 3;
	if (!strcmp(k, "memreserve") || !strcmp(k, "mixed"))
		l->n_memreserve = (unsigned)rng_range(r, 1, 64);
	if (!strncmp(k, "double", 6)) {
		/* the reserved array starts with reserved_init slots and cannot
		 * grow before paging_init(): stay just under it until then, so
		 * that the kernel's later allocations make it double (the
		 * reserved-memory regions of double-mixed take slots too) */
		l->n_memreserve = reserved_init - 8 - (unsigned)rmem;
		if (l->mem_mib < 2048)
			l->mem_mib = 2048;
		ram_end = ARM_RAM + l->mem_mib * MIB;
	}

	/* bank 0 holds the kernel; the rest of RAM is split into banks */
	l->banks[0] = (struct bank){ ARM_RAM, ARM_SAFE + 64 * MIB, 0 };
	l->n_banks = 1;
	if (banks > 1)
		gen_banks(l, r, ARM_RAM + ARM_SAFE + 64 * MIB, ram_end, banks - 1,
			  rng_range(r, 0, 1) ? 2 * MIB : 0x10000);
	else
		l->banks[0].size = ram_end - ARM_RAM;
	/* the top bank must be large: the kernel allocates top-down there */
	if (l->banks[l->n_banks - 1].size < 256 * MIB && l->n_banks > 1)
		l->banks[l->n_banks - 1].size = ram_end - l->banks[l->n_banks - 1].base;
	assign_nodes(l, nodes);
	l->one_node_many_regs = nodes == 1 && l->n_banks > 1 && rng_range(r, 0, 1);
	l->distance_map = nodes > 1 && rng_range(r, 0, 1);

	l->dtsi = open_out(dir, l->name, "dtsi");
	free_zone(l, &lo, &hi);
	l->memreserve_base = align_down(lo, MIB);
	l->memreserve_step = rng_range(r, 1, 4) * 0x10000;
	l->memreserve_size = rng_range(r, 1, 4) * 0x1000;
	for (unsigned i = 0; i < l->n_memreserve; i++)
		fprintf(l->dtsi, "/memreserve/ 0x%" PRIx64 " 0x%" PRIx64 ";\n",
			l->memreserve_base + i * l->memreserve_step, l->memreserve_size);
	fprintf(l->dtsi, "/ {\n");
	dt_memory(l);
	snprintf(l->summary, sizeof(l->summary), "banks=%d nodes=%d%s", l->n_banks, l->n_nodes,
		 l->one_node_many_regs ? " one-node" : "");
	if (rmem)
		dt_rmem(l, r, rmem, nomap_bias);
	if (l->n_memreserve)
		add_summary(l, " memreserve=%u", l->n_memreserve);
	fprintf(l->dtsi, "};\n");
	fclose(l->dtsi);
}

static void gen_amd64(struct layout *l, struct rng *r, FILE *f)
{
	static const uint64_t sizes[] = { 512, 1024, 1536, 2048, 3072, 4096 };
	const char *k = l->kind;
	int nodes = 1, n_memmap = 0;
	char append[1024] = "", qemu[1024] = "";
	size_t a = 0, q = 0;
	uint64_t low_top;

	l->mem_mib = sizes[rng_range(r, 0, 5)];
	/* below 4 GiB QEMU's pc machine keeps RAM under 3 GiB */
	low_top = l->mem_mib < 3072 ? l->mem_mib : 3072;
	if (!strcmp(k, "numa") || !strcmp(k, "mixed") || !strcmp(k, "numa-memmap"))
		nodes = (int)rng_range(r, 2, 4);
	if (!strcmp(k, "memmap") || !strcmp(k, "mixed") || !strcmp(k, "numa-memmap") ||
	    !strcmp(k, "pmem") || !strcmp(k, "acpi"))
		n_memmap = (int)rng_range(r, 1, 4);
	if (nodes > 1) {
		uint64_t left = l->mem_mib;

		for (int i = 0; i < nodes; i++) {
			uint64_t sz = i == nodes - 1 ? left :
				align_down(rng_range(r, left / (uint64_t)(nodes - i) / 2,
						     left / (uint64_t)(nodes - i)), 128);
			if (sz < 128)
				sz = 128;
			left -= sz;
			q += (size_t)snprintf(qemu + q, sizeof(qemu) - q,
				"%s-object memory-backend-ram,id=m%d,size=%" PRIu64 "M"
				" -numa node,nodeid=%d,memdev=m%d%s", q ? " " : "", i, sz, i, i,
				i == 0 ? ",cpus=0" : "");
		}
	}
	for (int i = 0; i < n_memmap; i++) {
		/* inside low RAM, away from the kernel (16 MiB..) and the top */
		uint64_t size = rng_range(r, 1, 32) * (rng_range(r, 0, 1) ? 1024 : 64);
		uint64_t at = align_down(rng_range(r, 256, low_top - 160) * 1024, 64);
		char type = '$';

		if (!strcmp(k, "pmem") || (!strcmp(k, "mixed") && rng_range(r, 0, 2) == 0))
			type = '!';
		if (!strcmp(k, "acpi"))
			type = '#';
		a += (size_t)snprintf(append + a, sizeof(append) - a, "%smemmap=%" PRIu64 "K%c0x%" PRIx64,
				      a ? " " : "", size, type, at * 1024);
	}
	if (!strcmp(k, "mem") || (!strcmp(k, "mixed") && rng_range(r, 0, 1))) {
		uint64_t lim = rng_range(r, 384, l->mem_mib > 1024 ? l->mem_mib - 128 : 900);

		a += (size_t)snprintf(append + a, sizeof(append) - a, "%smem=%" PRIu64 "M",
				      a ? " " : "", lim);
	}
	if (q)
		fprintf(f, "qemu %s\n", qemu);
	if (a)
		fprintf(f, "append %s\n", append);
	snprintf(l->summary, sizeof(l->summary), "nodes=%d memmap=%d", nodes, n_memmap);
}

static void usage(void)
{
	fprintf(stderr, "usage: layout-gen --arch arm64|amd64 --seed S --count N "
			"[--reserved-init R] --out DIR\n");
	exit(2);
}

static uint64_t num_arg(const char *opt, const char *v)
{
	char *end;
	unsigned long long n = strtoull(v, &end, 0);

	if (!*v || *end) {
		fprintf(stderr, "layout-gen: %s needs a number, got '%s'\n", opt, v);
		exit(2);
	}
	return n;
}

int main(int argc, char **argv)
{
	const char *arch = NULL, *dir = NULL;
	uint64_t seed = 1, count = 16, reserved_init = 128;

	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage();
		if (!strcmp(argv[i], "--arch"))
			arch = v;
		else if (!strcmp(argv[i], "--seed"))
			seed = num_arg("--seed", v);
		else if (!strcmp(argv[i], "--count"))
			count = num_arg("--count", v);
		else if (!strcmp(argv[i], "--reserved-init"))
			reserved_init = num_arg("--reserved-init", v);
		else if (!strcmp(argv[i], "--out"))
			dir = v;
		else
			usage();
		i++;
	}
	if (!arch || !dir || (strcmp(arch, "arm64") && strcmp(arch, "amd64")) ||
	    reserved_init < 16 || reserved_init > 100000 || count > 1000)
		usage();
	for (uint64_t i = 0; i < count; i++) {
		struct rng r = { seed * 0x100000001b3ULL + i * 0x9e3779b97f4a7c15ULL +
				 (arch[0] == 'a' && arch[1] == 'r') };
		static struct layout l;
		FILE *f;

		memset(&l, 0, sizeof(l));
		rng_next(&r);
		l.kind = (!strcmp(arch, "arm64") ? arm_kinds : x86_kinds)[i % N_KINDS];
		snprintf(l.name, sizeof(l.name), "%s-%02" PRIu64 "-%s", arch, i, l.kind);
		f = open_out(dir, l.name, "layout");
		fprintf(f, "# tools/boot-lab/layout-gen --arch %s --seed %" PRIu64
			   " --reserved-init %" PRIu64 ", layout %" PRIu64 "\n",
			arch, seed, reserved_init, i);
		fprintf(f, "name %s\n", l.name);
		if (!strcmp(arch, "arm64"))
			gen_arm64(&l, &r, (unsigned)reserved_init, dir);
		else
			gen_amd64(&l, &r, f);
		fprintf(f, "mem %" PRIu64 "\n", l.mem_mib);
		fprintf(f, "summary %s\n", l.summary);
		if (fclose(f)) {
			perror(l.name);
			return 1;
		}
		printf("%s\n", l.name);
	}
	return 0;
}

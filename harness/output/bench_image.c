// SPDX-License-Identifier: GPL-2.0
/*
 * The program image as `mbdiff bench` sees it (bench_int.h): a copy of its
 * own for every measuring process, and the flush before a cold sample.
 *
 * The code and read-only pages of a program are the page cache's pages of
 * its file: every process that runs the binary shares them, so where they
 * lie physically is the same for every run until the file changes. A cold
 * replay fetches its code from memory, and what that costs depends on
 * where the lines lie (banks, rows, and whatever else uses the same ones):
 * a bias no number of processes would average away. Each process copies
 * those pages to fresh anonymous ones and moves the copy over the original
 * (mremap, one call per segment: the bytes at every address stay the same,
 * so the code that makes the call carries on in the copy).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench_int.h"

#if defined(__linux__) && defined(__GNUC__)
#include <link.h>

struct image_walk {
	int err;
	size_t bytes;
};

/*
 * Word by word through volatile pointers, not memcpy: under ASan the
 * segment holds poisoned redzones between its globals, and memcpy (or a
 * loop the compiler turns into one) is checked byte for byte.
 */
__attribute__((no_sanitize("address")))
static void copy_words(void *dst, uintptr_t src, size_t len)
{
	volatile uint64_t *d = dst;
	const volatile uint64_t *s = (const volatile uint64_t *)src;

	for (size_t i = 0; i < len / sizeof(*d); i++)
		d[i] = s[i];
}

/* The whole pages of one read-only segment, copied over themselves. */
static int copy_over(uintptr_t lo, uintptr_t hi, int prot)
{
	size_t len = hi - lo;
	void *copy;

	copy = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (copy == MAP_FAILED)
		return errno;
	copy_words(copy, lo, len);
	if (mprotect(copy, len, prot) != 0 ||
	    mremap(copy, len, len, MREMAP_MAYMOVE | MREMAP_FIXED,
		   (void *)lo) == MAP_FAILED) {
		int err = errno;

		munmap(copy, len);
		return err;
	}
	return 0;
}

static int private_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct image_walk *w = arg;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	(void)size;
	for (int i = 0; i < info->dlpi_phnum && !w->err; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
		int prot = PROT_READ | (ph->p_flags & PF_X ? PROT_EXEC : 0);

		/* written pages are this process's already */
		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
			continue;
		/* only whole pages: a page shared with a writable segment stays */
		lo = (lo + page - 1) & ~(page - 1);
		hi &= ~(page - 1);
		if (hi <= lo)
			continue;
		w->err = copy_over(lo, hi, prot);
		if (!w->err)
			w->bytes += hi - lo;
	}
	/* the program itself is listed first */
	return 1;
}

int mbd_bench_image_private(size_t *bytes)
{
	struct image_walk w = { 0, 0 };

	dl_iterate_phdr(private_segments, &w);
	*bytes = w.bytes;
	return w.err;
}
#else
int mbd_bench_image_private(size_t *bytes)
{
	*bytes = 0;
	return ENOSYS;
}
#endif

#if defined(__linux__) && defined(__x86_64__) && defined(__GNUC__)
static void flush_range(const char *p, size_t len)
{
	const char *lo = (const char *)((uintptr_t)p & ~(uintptr_t)63);

	for (const char *q = lo; q < p + len; q += 64)
		__builtin_ia32_clflush(q);
}

/* every loaded segment of the program itself (the first object listed);
 * the gaps between them are not mapped */
static int flush_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD)
			flush_range((const char *)(info->dlpi_addr + ph->p_vaddr),
				    ph->p_memsz);
	}
	return 1;
}

void mbd_bench_image_flush(const void *extra, size_t len)
{
	dl_iterate_phdr(flush_segments, NULL);
	flush_range(extra, len);
	__builtin_ia32_mfence();
}
#else
void mbd_bench_image_flush(const void *extra, size_t len)
{
	(void)extra;
	(void)len;
}
#endif

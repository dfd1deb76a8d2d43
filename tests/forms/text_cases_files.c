// SPDX-License-Identifier: GPL-2.0
/* unit/test_text's file cases (input.c, files.c): loading a file, writing one atomically. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbd_test.h"
#include "mbd_input.h"
#include "mbd_output.h"
#include "mbd_text.h"
#include "text_test.h"

/* ---- input.c ---- */

char tmpdir[] = "/tmp/mbd-test-text.XXXXXX";

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", tmpdir, name);
}

static void put_file(const char *name, const void *data, size_t len)
{
	char p[512];
	FILE *f;

	path_in(p, sizeof(p), name);
	f = fopen(p, "wb");
	MBD_CHECK(f != NULL);
	if (!f)
		return;
	MBD_CHECK(fwrite(data, 1, len, f) == len);
	MBD_CHECK(fclose(f) == 0);
}

/* Number of directory entries whose names contain sub. */
static int count_entries(const char *dir, const char *sub)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!dp)
		return -1;
	while ((e = readdir(dp)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strstr(e->d_name, sub))
			n++;
	closedir(dp);
	return n;
}

static void check_loads_as_binary(const char *name, const uint8_t *data, size_t len)
{
	struct mbd_trace t, want;
	struct mbd_diag d;
	char p[512];

	path_in(p, sizeof(p), name);
	put_file(name, data, len);
	mbd_trace_init(&t);
	mbd_trace_init(&want);
	mbd_bin_decode(data, len, MBD_DECODER_STRUCTURED, &want);
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK(trace_eq(&t, &want));
	mbd_trace_clear(&want);
	mbd_bin_decode(data, len, MBD_DECODER_NAIVE, &want);
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_NAIVE, &t, &d) == 0);
	MBD_CHECK(trace_eq(&t, &want));
	mbd_trace_free(&t);
	mbd_trace_free(&want);
}

void test_load(void)
{
	static const char good[] = "config slab=1\nmemblock_add: [0x0-0xfff]\nslab_available\n";
	static const char bad[] = "# c\nmemblock_add: [0x0-0xfff]\nmemblock_add: [0x0-0xfff\n";
	static const uint8_t binary[] = { 0x00, 0x13, 0xff, 0x42, 0x7f, 0x80, 0x01, 0x02, 'm' };
	static const char words[] = "hello world\nmemblock_add: [0x0-0xfff]\n";
	static const char padded[] = "  \r\n\n\tmemblock_reserve: [0x0-0xfff]\n";
	struct mbd_trace t;
	struct mbd_diag d;
	char p[512], why[200];
	uint8_t *buf;
	size_t len;

	mbd_trace_init(&t);
	put_file("good.mbt", good, sizeof(good) - 1);
	path_in(p, sizeof(p), "good.mbt");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 2);
	MBD_CHECK(t.cfg.slab);
	MBD_CHECK(t.n_ops == 2 && t.lines[1] == 3);

	/* .mbt with an error: -1, the diag names the file and the line. */
	put_file("bad.mbt", bad, sizeof(bad) - 1);
	path_in(p, sizeof(p), "bad.mbt");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK_STR(d.file, p);
	MBD_CHECK_EQ_U64(d.line, 3);
	MBD_CHECK(strstr(d.msg, "missing ']'") != NULL);
	MBD_CHECK_EQ_U64(t.n_ops, 0);

	/* .mbt is text even when it holds binary: an error, not a decode. */
	put_file("bin.mbt", binary, sizeof(binary));
	path_in(p, sizeof(p), "bin.mbt");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK(strstr(d.msg, "binary data") != NULL);
	/* An empty .mbt is an empty trace. */
	put_file("empty.mbt", "", 0);
	path_in(p, sizeof(p), "empty.mbt");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 0);

	/* Sniffing: text without the .mbt suffix. */
	put_file("crash-1234", bad + 4, 26); /* "memblock_add: [0x0-0xfff]\n" */
	path_in(p, sizeof(p), "crash-1234");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK(t.n_ops == 1 && t.lines[0] == 1);
	put_file("comment-first", bad, sizeof(bad) - 1);
	path_in(p, sizeof(p), "comment-first");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK_EQ_U64(d.line, 3);
	put_file("padded", padded, sizeof(padded) - 1);
	path_in(p, sizeof(p), "padded");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK(t.n_ops == 1 && t.ops[0].kind == MBD_OP_RESERVE && t.lines[0] == 3);
	put_file("config-first", "config\n", 7);
	path_in(p, sizeof(p), "config-first");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == 0);
	MBD_CHECK_EQ_U64(t.n_ops, 0);

	/* Not text: decoded as fuzzer bytes, exactly as mbd_bin_decode does. */
	check_loads_as_binary("binary.bin", binary, sizeof(binary));
	check_loads_as_binary("words", (const uint8_t *)words, sizeof(words) - 1);
	check_loads_as_binary("config-word", (const uint8_t *)"configure\n", 10);
	check_loads_as_binary("blank", (const uint8_t *)" \n\n", 3);
	check_loads_as_binary("empty", (const uint8_t *)"", 0);
	/* Text with one stray binary byte is binary (the sniff needs all text). */
	check_loads_as_binary("almost", (const uint8_t *)"memblock_add: [0x0-0xfff]\n\x01", 27);
	check_loads_as_binary("utf8", (const uint8_t *)"memblock_add: [0x0-0xfff] \xc3\xa9\n", 29);

	/* Unreadable: missing file, directory. */
	path_in(p, sizeof(p), "no-such-file.mbt");
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK_STR(d.file, p);
	MBD_CHECK_EQ_U64(d.line, 0);
	MBD_CHECK(strstr(d.msg, strerror(ENOENT)) != NULL);
	MBD_CHECK(mbd_load_file(tmpdir, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK(strstr(d.msg, strerror(EISDIR)) != NULL);

	/* mbd_read_file: exact bytes; a reason on failure, nothing read. */
	path_in(p, sizeof(p), "binary.bin");
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK(len == sizeof(binary) && memcmp(buf, binary, len) == 0);
	free(buf);
	/* over the bound: refused, whatever the content */
	MBD_CHECK(mbd_read_file(p, sizeof(binary) - 1, &buf, &len, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "too large") != NULL && buf == NULL);
	path_in(p, sizeof(p), "empty");
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK_EQ_U64(len, 0);
	free(buf);
	MBD_CHECK(mbd_read_file(tmpdir, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == -1);
	MBD_CHECK_STR(why, strerror(EISDIR));
	path_in(p, sizeof(p), "nope");
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == -1);
	MBD_CHECK_STR(why, strerror(ENOENT));
	/* a FIFO (no writer: opening it would wait forever), a device, a
	 * /proc file with no size: refused at once */
	path_in(p, sizeof(p), "fifo");
	MBD_CHECK(mkfifo(p, 0600) == 0);
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "a FIFO") != NULL);
	MBD_CHECK(mbd_load_file(p, MBD_DECODER_STRUCTURED, &t, &d) == -1);
	MBD_CHECK(strstr(d.msg, "cannot read: a FIFO") != NULL);
	MBD_CHECK(unlink(p) == 0);
	MBD_CHECK(mbd_read_file("/dev/zero", MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "character device") != NULL);
	MBD_CHECK(mbd_read_file("/proc/self/status", MBD_INPUT_MAX, &buf, &len, why,
				sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "/proc") != NULL);
	mbd_trace_free(&t);
}

void test_write_atomic(void)
{
	char dir[512], p[600], sub[600], link[600], why[200];
	uint8_t *buf;
	size_t len;
	struct stat st;
	char big[100000];
	mode_t mask = umask(022);

	path_in(dir, sizeof(dir), "out");
	MBD_CHECK(mkdir(dir, 0755) == 0);
	snprintf(p, sizeof(p), "%s/result.mbt", dir);

	/* New file. */
	MBD_CHECK(mbd_output_write(p, "first\n", 6, why, sizeof(why)) == 0);
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK(len == 6 && memcmp(buf, "first\n", 6) == 0);
	free(buf);
	MBD_CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0644);
	/* Replace, shorter and then much longer; the mode is kept. */
	MBD_CHECK(chmod(p, 0640) == 0);
	MBD_CHECK(mbd_output_write(p, "2", 1, why, sizeof(why)) == 0);
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK(len == 1 && buf[0] == '2');
	free(buf);
	MBD_CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0640);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7);
	MBD_CHECK(mbd_output_write(p, big, sizeof(big), why, sizeof(why)) == 0);
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK(len == sizeof(big) && memcmp(buf, big, len) == 0);
	free(buf);
	MBD_CHECK(mbd_output_write(p, "", 0, why, sizeof(why)) == 0);
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK_EQ_U64(len, 0);
	free(buf);
	MBD_CHECK_EQ_U64(count_entries(dir, ""), 1);
	MBD_CHECK_EQ_U64(count_entries(dir, ".mbdiff-out."), 0);

	/* A symlink is written through: the link stays, its target changes. */
	snprintf(link, sizeof(link), "%s/link.mbt", dir);
	MBD_CHECK(symlink("result.mbt", link) == 0);
	MBD_CHECK(mbd_output_write(link, "via", 3, why, sizeof(why)) == 0);
	MBD_CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	MBD_CHECK(mbd_read_file(p, MBD_INPUT_MAX, &buf, &len, why, sizeof(why)) == 0);
	MBD_CHECK(len == 3 && memcmp(buf, "via", 3) == 0);
	free(buf);
	/* ... and naming the input is refused, through the link too */
	MBD_CHECK(mbd_output_check(link, (const char *const[]){ p }, 1, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "is the input") != NULL);
	MBD_CHECK(mbd_output_check(link, (const char *const[]){ dir }, 1, why, sizeof(why)) == 0);
	MBD_CHECK(unlink(link) == 0);
	/* A device is written in place, never replaced. */
	MBD_CHECK(mbd_output_write("/dev/null", "x", 1, why, sizeof(why)) == 0);
	MBD_CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
	/* A FIFO nobody reads: an error at once, the FIFO kept. */
	snprintf(sub, sizeof(sub), "%s/fifo", dir);
	MBD_CHECK(mkfifo(sub, 0600) == 0);
	MBD_CHECK(mbd_output_write(sub, "x", 1, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "FIFO") != NULL);
	MBD_CHECK(lstat(sub, &st) == 0 && S_ISFIFO(st.st_mode));
	MBD_CHECK(unlink(sub) == 0);

	/* A directory is refused, its content untouched: no temp left. */
	snprintf(sub, sizeof(sub), "%s/target", dir);
	MBD_CHECK(mkdir(sub, 0755) == 0);
	snprintf(p, sizeof(p), "%s/target/keep", dir);
	MBD_CHECK(mbd_output_write(p, "k", 1, why, sizeof(why)) == 0);
	MBD_CHECK(mbd_output_check(sub, NULL, 0, why, sizeof(why)) == -1);
	MBD_CHECK(mbd_output_write(sub, "x", 1, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, "a directory") != NULL);
	MBD_CHECK_EQ_U64(count_entries(dir, ".mbdiff-out."), 0);
	MBD_CHECK_EQ_U64(count_entries(dir, ""), 2);
	MBD_CHECK_EQ_U64(count_entries(sub, ""), 1);
	/* No such directory: refused by the check already. */
	snprintf(p, sizeof(p), "%s/missing/x.mbt", dir);
	MBD_CHECK(mbd_output_check(p, NULL, 0, why, sizeof(why)) == -1);
	MBD_CHECK(mbd_output_write(p, "x", 1, why, sizeof(why)) == -1);
	MBD_CHECK(strstr(why, strerror(ENOENT)) != NULL);
	MBD_CHECK_EQ_U64(count_entries(dir, ".mbdiff-out."), 0);
	umask(mask);
}

/* Remove the temporary directory tree (two levels are all we create). */
void rm_tree(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char p[1024];
	struct stat st;

	if (!dp)
		return;
	while ((e = readdir(dp))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rm_tree(p);
		else
			unlink(p);
	}
	closedir(dp);
	rmdir(dir);
}

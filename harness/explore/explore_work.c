// SPDX-License-Identifier: GPL-2.0
/*
 * One level of the breadth-first search: every node of the level runs
 * with every call of the alphabet appended. With -j N the level is cut
 * into N contiguous slices, each expanded by a forked worker against its
 * copy-on-write view of the seen set; the parent then merges the workers'
 * records slice by slice, which keeps exactly the order (and so the
 * representatives and shortest traces) of a run in one process.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "explore_int.h"

/* What a worker tells the parent about one child state or finding. */
enum rec_kind { REC_STATE = 1, REC_FOUND = 2, REC_END = 3 };

struct rec {
	uint8_t kind;
	uint8_t cls;
	uint8_t fault;
	uint16_t op;
	uint32_t parent;
	uint64_t hash[2];
	char key[200];
	char signature[200];
};

double mbd_xnow(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int mbd_xfound(struct mbd_xsearch *s, const struct mbd_verdict *v,
	       const char *key, size_t parent, uint16_t op)
{
	struct mbd_xfinding *f;
	size_t root, d;

	for (size_t i = 0; i < s->n_found; i++)
		if (strcmp(s->found[i].key, key) == 0)
			return 0;
	if (s->n_found == s->cap_found) {
		size_t cap = s->cap_found ? s->cap_found * 2 : 16;
		struct mbd_xfinding *nf = realloc(s->found, cap * sizeof(*nf));

		if (!nf)
			return -1;
		s->found = nf;
		s->cap_found = cap;
	}
	f = &s->found[s->n_found];
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "%s", key);
	snprintf(f->signature, sizeof(f->signature), "%s", v->signature);
	f->baseline_fault = v->baseline_fault;
	f->cls = v->cls;
	d = s->store.v[parent].depth;
	f->idx = calloc(d + 1, sizeof(*f->idx));
	if (!f->idx)
		return -1;
	mbd_xstore_path(&s->store, parent, f->idx, d, &root);
	f->idx[d] = op;
	f->n = d + 1;
	f->root = root;
	s->n_found++;
	return 0;
}

/* The key of a baseline fault: no second variant, so built here. */
static void fault_key(const struct mbd_xsearch *s, const struct mbd_verdict *v,
		      char *key, size_t n, char *sig, size_t sn)
{
	const char *name = mbd_runner_variant(s->runner, 0)->name;

	snprintf(key, n, "baseline-fault %s %s/%s %s", name,
		 mbd_where_name(v->where), mbd_class_name(v->cls),
		 mbd_op_name(v->op_kind));
	snprintf(sig, sn, "mbdiff: baseline fault %s %s/%s at op %zu %s", name,
		 mbd_where_name(v->where), mbd_class_name(v->cls),
		 v->op_index + 1, mbd_op_name(v->op_kind));
}

enum outcome { OUT_LIVE, OUT_TERMINAL, OUT_FOUND, OUT_ERROR };

/* Run node's calls plus op from reset and judge the last call. */
static enum outcome run_child(struct mbd_xsearch *s, size_t node, uint16_t op,
			      struct mbd_verdict *v, char *key, size_t kn,
			      uint64_t hash[2], bool store)
{
	size_t root, d = mbd_xstore_path(&s->store, node, s->idx, s->o->depth, &root);
	int ret;

	s->idx[d] = op;
	if (mbd_alphabet_trace(s->a, root, s->idx, d + 1, &s->t))
		return OUT_ERROR;
	ret = mbd_runner_run(s->runner, &s->t, v);
	s->runs++;
	if (ret < 0)
		return OUT_ERROR;
	if (ret == 1) {
		mbd_verdict_key(v, key, kn);
		return OUT_FOUND;
	}
	if (v->baseline_fault) {
		fault_key(s, v, key, kn, v->signature, sizeof(v->signature));
		return OUT_FOUND;
	}
	if (v->all_panicked || v->ops_run < s->t.n_ops) {
		s->terminal++;
		return OUT_TERMINAL;
	}
	/* the last level's states are not kept: no need to hash them */
	if (store)
		mbd_xstate_digest(s->runner, &s->t, hash);
	return OUT_LIVE;
}

static void cap_stop(struct mbd_xsearch *s)
{
	s->stop = true;
	snprintf(s->stop_reason, sizeof(s->stop_reason),
		 "the cap of %zu states was reached (at most %zu MB; raise --max-states)",
		 s->o->max_states, s->o->max_states * 64 / 1000000);
}

/* A new child state: kept unless seen (or merging is off). */
static int keep_state(struct mbd_xsearch *s, const uint64_t hash[2],
		      size_t parent, uint16_t op, bool *added)
{
	struct mbd_xnode nd = { .hash = { hash[0], hash[1] },
				.parent = (uint32_t)parent, .op = op,
				.depth = (uint16_t)(s->store.v[parent].depth + 1) };

	*added = false;
	if (s->o->merge && mbd_xstore_find(&s->store, hash) >= 0)
		return 0;
	if (s->store.n >= s->o->max_states) {
		cap_stop(s);
		return 0;
	}
	if (mbd_xstore_add(&s->store, &nd) < 0)
		return -1;
	*added = true;
	return 0;
}

static void progress(struct mbd_xsearch *s, size_t depth, uint64_t done,
		     uint64_t total, uint64_t runs_before, double level_t0,
		     bool final)
{
	double now = mbd_xnow(), el = now - level_t0;
	double rate = el > 0 ? (double)(s->runs - runs_before) / el : 0;
	double eta = done && el > 0 ? el * (double)(total - done) / (double)done : 0;

	if (!s->o->progress)
		return;
	fprintf(stderr, "explore: depth %zu/%zu  %" PRIu64 "/%" PRIu64
		" runs  %.0f runs/s  %zu states  %.0f states/s  level ETA %.0f s  (%.0f s)%s",
		depth, s->o->depth, done, total, rate, s->store.n,
		(double)s->store.n / (now - s->t0 + 1e-9), eta,
		now - s->t0 + s->t_prev, final ? "\n" : "\r");
	if (!final && !isatty(2))
		fputc('\n', stderr);
	fflush(stderr);
}

static bool out_of_time(const struct mbd_xsearch *s)
{
	return s->o->time_limit > 0 &&
	       mbd_xnow() - s->t0 + s->t_prev > s->o->time_limit;
}

static void time_stop(struct mbd_xsearch *s)
{
	s->stop = true;
	snprintf(s->stop_reason, sizeof(s->stop_reason),
		 "the time limit of %.0f s was reached", s->o->time_limit);
}

/*
 * Expand nodes [lo, hi). With out NULL the results go straight into s;
 * otherwise (a worker) new states and findings are also written to out,
 * and *counter follows the runs for the parent's progress line.
 */
static int expand(struct mbd_xsearch *s, size_t lo, size_t hi, size_t depth,
		  bool store, FILE *out, volatile uint64_t *counter)
{
	size_t n_ops = s->a->n_ops;
	uint64_t runs0 = s->runs, total = (uint64_t)(hi - lo) * n_ops;
	double level_t0 = mbd_xnow(), last = level_t0;
	struct mbd_verdict v;
	char key[200];

	for (size_t i = lo; i < hi && !s->stop; i++) {
		for (size_t k = 0; k < n_ops && !s->stop; k++) {
			uint64_t hash[2] = { 0, 0 };
			struct rec rc = { .op = (uint16_t)k, .parent = (uint32_t)i };
			enum outcome oc = run_child(s, i, (uint16_t)k, &v, key, sizeof(key), hash,
						   store);
			bool added = false;
			size_t before = s->n_found;

			if (oc == OUT_ERROR)
				return -1;
			if (oc == OUT_FOUND && mbd_xfound(s, &v, key, i, (uint16_t)k))
				return -1;
			if (oc == OUT_LIVE && store && keep_state(s, hash, i, (uint16_t)k, &added))
				return -1;
			if (out && (added || s->n_found != before)) {
				rc.kind = added ? REC_STATE : REC_FOUND;
				rc.hash[0] = hash[0];
				rc.hash[1] = hash[1];
				rc.cls = (uint8_t)v.cls;
				rc.fault = v.baseline_fault;
				snprintf(rc.key, sizeof(rc.key), "%s", key);
				snprintf(rc.signature, sizeof(rc.signature), "%s", v.signature);
				if (fwrite(&rc, sizeof(rc), 1, out) != 1)
					return -1;
			}
		}
		if (counter)
			*counter = s->runs - runs0;
		if (((i - lo) & 63) == 0 && !counter) {
			double now = mbd_xnow();

			if (out_of_time(s))
				time_stop(s);
			if (now - last >= (isatty(2) ? 0.5 : 10)) {
				last = now;
				progress(s, depth, s->runs - runs0, total, runs0,
					 level_t0, false);
			}
		}
	}
	if (!counter && !s->stop)
		progress(s, depth, s->runs - runs0, total, runs0, level_t0, true);
	return 0;
}

/* The parent's half of a forked level: the slices' records, in order. */
static int merge(struct mbd_xsearch *s, FILE *in)
{
	struct rec rc;
	struct mbd_verdict v;

	rewind(in);
	while (fread(&rc, sizeof(rc), 1, in) == 1) {
		bool added;

		if (rc.kind == REC_END) {
			s->runs += rc.hash[0];
			s->terminal += rc.hash[1];
			return 0;
		}
		if (rc.kind == REC_STATE) {
			if (keep_state(s, rc.hash, rc.parent, rc.op, &added))
				return -1;
			if (s->stop)
				return 0;
			continue;
		}
		memset(&v, 0, sizeof(v));
		v.cls = (enum mbd_class)rc.cls;
		v.baseline_fault = rc.fault;
		snprintf(v.signature, sizeof(v.signature), "%s", rc.signature);
		if (mbd_xfound(s, &v, rc.key, rc.parent, rc.op))
			return -1;
	}
	fprintf(stderr, "mbdiff: explore: a worker's records are truncated\n");
	return -1;
}

static void worker(struct mbd_xsearch *s, size_t lo, size_t hi, size_t depth,
		   bool store, FILE *out, volatile uint64_t *counter)
{
	struct rec end = { .kind = REC_END };
	uint64_t runs0 = s->runs, term0 = s->terminal;

	if (expand(s, lo, hi, depth, store, out, counter))
		_exit(3);
	end.hash[0] = s->runs - runs0;
	end.hash[1] = s->terminal - term0;
	if (fwrite(&end, sizeof(end), 1, out) != 1 || fflush(out))
		_exit(3);
	_exit(s->stop ? 4 : 0);
}

static void kill_all(const pid_t *pid, int n)
{
	for (int w = 0; w < n; w++)
		if (pid[w] > 0) {
			kill(pid[w], SIGKILL);
			waitpid(pid[w], NULL, 0);
		}
}

static int forked_level(struct mbd_xsearch *s, size_t lo, size_t hi,
			size_t depth, bool store, int jobs)
{
	FILE *tmp[64] = { 0 };
	pid_t pid[64] = { 0 };
	volatile uint64_t *cnt;
	uint64_t runs0 = s->runs, total = (uint64_t)(hi - lo) * s->a->n_ops;
	double level_t0 = mbd_xnow(), last = level_t0;
	int ret = -1, alive = jobs, status;

	cnt = mmap(NULL, 64 * sizeof(uint64_t), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cnt == MAP_FAILED)
		return fprintf(stderr, "mbdiff: explore: mmap: %s\n", strerror(errno)), -1;
	fflush(NULL);
	for (int w = 0; w < jobs; w++) {
		size_t a = lo + (hi - lo) * (size_t)w / (size_t)jobs;
		size_t b = lo + (hi - lo) * (size_t)(w + 1) / (size_t)jobs;

		tmp[w] = tmpfile();
		if (!tmp[w]) {
			fprintf(stderr, "mbdiff: explore: tmpfile: %s\n", strerror(errno));
			goto out;
		}
		pid[w] = fork();
		if (pid[w] < 0) {
			fprintf(stderr, "mbdiff: explore: fork: %s\n", strerror(errno));
			goto out;
		}
		if (pid[w] == 0)
			worker(s, a, b, depth, store, tmp[w], &cnt[w]);
	}
	while (alive) {
		struct timespec ts = { 0, 100000000 };
		uint64_t done = 0;

		nanosleep(&ts, NULL);
		alive = 0;
		for (int w = 0; w < jobs; w++) {
			if (pid[w] > 0 && waitpid(pid[w], &status, WNOHANG) == pid[w]) {
				pid[w] = -pid[w];
				if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 &&
							   WEXITSTATUS(status) != 4)) {
					fprintf(stderr, "mbdiff: explore: worker %d failed\n", w);
					goto out;
				}
			}
			alive += pid[w] > 0;
			done += cnt[w];
		}
		if (out_of_time(s)) {
			time_stop(s);
			ret = 0;
			goto out;
		}
		if (alive && mbd_xnow() - last >= (isatty(2) ? 0.5 : 10)) {
			last = mbd_xnow();
			s->runs = runs0 + done;
			progress(s, depth, done, total, runs0, level_t0, false);
			s->runs = runs0;
		}
	}
	ret = 0;
	for (int w = 0; w < jobs && !s->stop; w++)
		if (merge(s, tmp[w])) {
			ret = -1;
			break;
		}
	if (!s->stop)
		progress(s, depth, s->runs - runs0, total, runs0, level_t0, true);
out:
	for (int w = 0; w < jobs; w++)
		if (pid[w] > 0)
			kill_all(&pid[w], 1);
	for (int w = 0; w < jobs; w++)
		if (tmp[w])
			fclose(tmp[w]);
	munmap((void *)cnt, 64 * sizeof(uint64_t));
	return ret;
}

int mbd_xlevel(struct mbd_xsearch *s, size_t lo, size_t hi, size_t depth,
	       bool store)
{
	int jobs = s->o->jobs;

	if (jobs > 64)
		jobs = 64;
	if (jobs <= 1 || hi - lo < (size_t)jobs * 4) {
		if (expand(s, lo, hi, depth, store, NULL, NULL)) {
			fprintf(stderr, "mbdiff: explore: out of memory\n");
			return -1;
		}
		return 0;
	}
	return forked_level(s, lo, hi, depth, store, jobs);
}

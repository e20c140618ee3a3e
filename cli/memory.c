// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memory budget of the commands that join names to inodes (find, du,
 * snapshot, diff against a mount, path -w): --memory SIZE or
 * XBULK_MEMORY, else an eighth of what the process may use (the smaller
 * of MemTotal and its memory cgroup's limit, as systemd's MemoryMax or a
 * container sets it), at least 64 MiB but at most a quarter; --tmpdir
 * DIR, else $TMPDIR, else /var/tmp, for the library's spill file
 * (xbulk/names.h).  And --stats of the whole run, for those commands and
 * export: the names build's figures, what the budget held and spilled
 * (read at the end: walks and cursors spill later than the build), peak
 * RSS, wall and CPU time.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "memory.h"

/* The floor of the default budget: below it a small machine would spill
 * trees that fit with room to spare (issue 25). */
#define DEFAULT_MIN	(64ULL << 20)

/* A limit of cgroup v1 this large is none: the kernel's "unlimited" is
 * PAGE_COUNTER_MAX pages, 9223372036854771712 bytes with 4 KiB pages. */
#define CGROUP_V1_NONE	(1ULL << 60)
#define CGROUP_V1_ROOT	"/sys/fs/cgroup/memory"

/* ------------------------------------------------------------------ */
/* SIZE                                                                */
/* ------------------------------------------------------------------ */

int
xb_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMGT";
	const char *p = s, *u;
	uint64_t v = 0;
	int shift = 0;

	if (*p == '-' && p[1] >= '0' && p[1] <= '9')
		return -EDOM;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p) {
		u = strchr(units, *p & ~0x20);
		if (!u || !(*p & ~0x20))
			return -EINVAL;
		shift = 10 * (int)(u - units + 1);
		p++;
		if (!strcmp(p, "iB"))
			p += 2;
		if (*p)
			return -EINVAL;
	}
	if (!v)
		return -EDOM;
	if (v > UINT64_MAX >> shift)
		return -ERANGE;
	*out = v << shift;
	return 0;
}

/* A bad SIZE @arg of @from ("--memory", "XBULK_MEMORY"): one line and
 * XB_EXIT_USAGE. */
static enum xb_exit
bad_size(const char *cmd, const char *from, const char *arg, int err)
{
	if (!*arg)
		return xb_usage_error(cmd, "%s: empty SIZE", from);
	if (err == -ERANGE)
		return xb_usage_error(cmd, "%s: '%s' is out of range (largest "
				      "is 18446744073709551615 bytes)", from,
				      arg);
	if (err == -EDOM && *arg == '-')
		return xb_usage_error(cmd, "%s: '%s' is negative", from, arg);
	if (err == -EDOM)
		return xb_usage_error(cmd, "%s: '%s': the budget must be at "
				      "least 1 byte", from, arg);
	if (strchr(arg, '.') || strchr(arg, ','))
		return xb_usage_error(cmd, "%s: '%s': whole numbers only "
				      "(1536M, not 1.5G)", from, arg);
	return xb_usage_error(cmd, "%s: '%s' is not a size (bytes, or "
			      "with K, M, G or T: 512M, 4G)", from, arg);
}

/* ------------------------------------------------------------------ */
/* The default budget                                                  */
/* ------------------------------------------------------------------ */

/* The first number of the file @path (a limit: "max" is none), or
 * UINT64_MAX. */
static uint64_t
read_limit(const char *path)
{
	unsigned long long v;
	FILE *f = fopen(path, "re");
	int n;

	if (!f)
		return UINT64_MAX;
	n = fscanf(f, "%llu", &v);
	fclose(f);
	return n == 1 ? (uint64_t)v : UINT64_MAX;
}

/*
 * The smallest limit in the file @name of the cgroup @rel (as
 * /proc/self/cgroup gives it, "/" first) under the mount @root and of
 * its ancestors up to @root: a cgroup may not use more than any of them
 * allows.  UINT64_MAX: none.
 */
static uint64_t
cgroup_limit(const char *root, const char *rel, const char *name)
{
	char dir[PATH_MAX], file[PATH_MAX + 64], *slash;
	size_t rootlen = strlen(root);
	uint64_t min = UINT64_MAX, v;

	if ((size_t)snprintf(dir, sizeof(dir), "%s%s", root, rel) >=
	    sizeof(dir))
		return UINT64_MAX;
	for (;;) {
		while (strlen(dir) > rootlen && dir[strlen(dir) - 1] == '/')
			dir[strlen(dir) - 1] = '\0';
		snprintf(file, sizeof(file), "%s/%s", dir, name);
		v = read_limit(file);
		if (v < min)
			min = v;
		slash = strrchr(dir, '/');
		if (strlen(dir) <= rootlen || !slash || slash < dir + rootlen)
			break;
		*slash = '\0';
	}
	return min;
}

/*
 * The process's memory cgroup limit, bytes (UINT64_MAX: none): cgroup v2
 * ("0::/path": memory.max under /sys/fs/cgroup) and v1 (the "memory"
 * hierarchy: memory.limit_in_bytes under /sys/fs/cgroup/memory), the
 * smaller of both where a hybrid system has both.
 */
static uint64_t
cgroup_memory_limit(void)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	uint64_t min = UINT64_MAX, v;
	char *line = NULL, *ctl, *path, *tok, *save;
	size_t cap = 0;
	ssize_t len;

	if (!f)
		return UINT64_MAX;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		/* "hierarchy-ID:controllers:path" */
		ctl = strchr(line, ':');
		path = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!path || path[1] != '/')
			continue;
		*path++ = '\0';
		ctl++;
		if (!strcmp(line, "0") && !*ctl) {
			v = cgroup_limit("/sys/fs/cgroup", path, "memory.max");
		} else {
			v = UINT64_MAX;
			for (tok = strtok_r(ctl, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				if (!strcmp(tok, "memory"))
					v = cgroup_limit(CGROUP_V1_ROOT, path,
						"memory.limit_in_bytes");
			if (v >= CGROUP_V1_NONE)
				v = UINT64_MAX;
		}
		if (v < min)
			min = v;
	}
	free(line);
	fclose(f);
	return min;
}

/* MemTotal of /proc/meminfo, bytes; UINT64_MAX if unknown. */
static uint64_t
mem_total(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kib;
	char line[256];

	if (!f)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kib) == 1) {
			fclose(f);
			return (uint64_t)kib * 1024;
		}
	fclose(f);
	return UINT64_MAX;
}

uint64_t
xb_memory_default(void)
{
	uint64_t ram = mem_total(), cg = cgroup_memory_limit();
	uint64_t m = ram < cg ? ram : cg;

	/* neither known: the floor (a budget is a ceiling, not a need) */
	if (m == UINT64_MAX)
		return DEFAULT_MIN;
	/* an eighth, at least 64 MiB, but never more than a quarter: a
	 * 128 MiB container gets 32 MiB */
	if (m / 8 >= DEFAULT_MIN)
		return m / 8;
	return m / 4 < DEFAULT_MIN ? m / 4 : DEFAULT_MIN;
}

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

enum xb_exit
xb_memory_option(struct xb_memory *m, const char *cmd, int opt,
		 const char *arg)
{
	int err;

	if (opt == XB_OPT_TMPDIR) {
		if (!*arg)
			return xb_usage_error(cmd, "--tmpdir: empty DIR");
		m->tmpdir = arg;
		m->tmpdir_given = true;
		return XB_EXIT_OK;
	}
	err = xb_parse_size(arg, &m->memory);
	if (err)
		return bad_size(cmd, "--memory", arg, err);
	m->memory_given = true;
	return XB_EXIT_OK;
}

enum xb_exit
xb_strategy_option(const char *cmd, const char *arg, bool plain_ok,
		   uint32_t *strategy)
{
	if (!strcmp(arg, "auto"))
		*strategy = XBULK_STRATEGY_AUTO;
	else if (!strcmp(arg, "scan"))
		*strategy = XBULK_STRATEGY_SCAN;
	else if (!strcmp(arg, "walk"))
		*strategy = XBULK_STRATEGY_WALK;
	else if (plain_ok && !strcmp(arg, "names"))
		*strategy = XBULK_STRATEGY_PLAIN;
	else
		return xb_usage_error(cmd, "--strategy: unknown strategy '%s' "
				      "(%s)", arg, plain_ok ?
				      "scan, walk, names or auto" :
				      "scan, walk or auto");
	return XB_EXIT_OK;
}

/* The strategy a names build took, as --stats names it. */
static const char *
strategy_name(const struct xb_run_stats *s)
{
	static const char *const plain[] = {
		[XB_PLAIN_NAMES] = "names", [XB_PLAIN_STAT] = "stat",
		[XB_PLAIN_FOLLOW] = "follow",
	};

	if (s->names.strategy == XBULK_STRATEGY_PLAIN)
		return plain[s->plain];
	return s->names.strategy == XBULK_STRATEGY_WALK ? "walk" : "scan";
}

enum xb_exit
xb_memory_setup(struct xb_memory *m, const char *cmd)
{
	const char *env = getenv("XBULK_MEMORY");
	struct stat st;
	int err;

	if (!m->memory_given && env && *env) {
		err = xb_parse_size(env, &m->memory);
		if (err)
			return bad_size(cmd, "XBULK_MEMORY", env, err);
	} else if (!m->memory_given) {
		m->memory = xb_memory_default();
	}
	if (!m->tmpdir_given) {
		/* looked at only if a spill is needed: the library names
		 * it then (a default on the scanned filesystem included) */
		env = getenv("TMPDIR");
		m->tmpdir = env && *env ? env : "/var/tmp";
		return XB_EXIT_OK;
	}
	if (stat(m->tmpdir, &st))
		return xb_usage_error(cmd, "--tmpdir: %s: %s", m->tmpdir,
				      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return xb_usage_error(cmd, "--tmpdir: %s: not a directory",
				      m->tmpdir);
	/* as the effective user; root passes the modes (not a read-only
	 * mount): what open() then finds is the library's to say */
	if (faccessat(AT_FDCWD, m->tmpdir, W_OK | X_OK, AT_EACCESS))
		return xb_usage_error(cmd, "--tmpdir: %s: not writable: %s",
				      m->tmpdir, strerror(errno));
	return XB_EXIT_OK;
}

enum xb_exit
xb_memory_check_fs(const struct xb_memory *m, const char *cmd,
		   const struct xbulk_fs *fs)
{
	struct stat a, b;

	if (!m->tmpdir_given || fstat(xbulk_fs_fd(fs), &a) ||
	    stat(m->tmpdir, &b) || a.st_dev != b.st_dev)
		return XB_EXIT_OK;
	return xb_usage_error(cmd, "--tmpdir: %s is on the filesystem being "
			      "scanned; give a directory elsewhere",
			      m->tmpdir);
}

/* ------------------------------------------------------------------ */
/* --stats                                                             */
/* ------------------------------------------------------------------ */

enum xb_exit
xb_stats_option(const char *cmd, int opt, const char *arg,
		enum xb_stats *stats, const char **file)
{
	if (opt == XB_OPT_STATS_FILE) {
		if (!*arg)
			return xb_usage_error(cmd, "--stats-file: empty FILE");
		*file = arg;
		return XB_EXIT_OK;
	}
	if (!arg || !strcmp(arg, "text"))
		*stats = XB_STATS_TEXT;
	else if (!strcmp(arg, "json"))
		*stats = XB_STATS_JSON;
	else
		return xb_usage_error(cmd, "--stats: unknown format '%s' "
				      "(text or json)", arg);
	return XB_EXIT_OK;
}

enum xb_exit
xb_run_stats_option(struct xb_run_stats *s, const char *cmd, int opt,
		    const char *arg)
{
	if (opt != XB_OPT_PROGRESS)
		return xb_stats_option(cmd, opt, arg, &s->stats, &s->file);
	s->progress.want = true;
	return XB_EXIT_OK;
}

int
xb_run_stats_begin(struct xb_run_stats *s, const char *cmd, const char *path)
{
	s->cmd = cmd;
	s->path = path;
	s->start_ns = xb_mono_ns();
	s->out = NULL;
	if (s->file && s->stats == XB_STATS_NONE)
		s->stats = XB_STATS_TEXT;
	if (!s->file)
		return 0;
	/* before the run, as bulkstat's: a FILE that cannot be written
	 * fails at once */
	s->out = fopen(s->file, "we");
	if (s->out)
		return 0;
	xb_error(cmd, "--stats-file: %s: %s", s->file, strerror(errno));
	s->stats = XB_STATS_NONE;	/* no report at the end */
	return -EIO;
}

void
xb_run_stats_names(struct xb_run_stats *s, const struct xbulk_names_result *r)
{
	s->names = *r;
	s->has_names = true;
}

/* The budget and the directory are the command's (what it gave the
 * library); the rest, the library's. */
static void
budget_of(struct xb_run_stats *s, const struct xb_memory *m)
{
	s->mem.budget = m->memory;
	if (!s->mem.tmpdir[0])
		snprintf(s->mem.tmpdir, sizeof(s->mem.tmpdir), "%s",
			 m->tmpdir);
}

/* Without names (the build failed: a spill that could not go on is
 * when the figures matter most), what the build's result says. */
static void
memory_of_result(struct xb_run_stats *s, const struct xb_memory *m)
{
	if (s->has_memory || !s->has_names)
		return;
	s->mem.spill_bytes = s->names.spill_bytes;
	s->mem.spill_trims = s->names.spill_trims;
	s->has_memory = true;
	budget_of(s, m);
}

void
xb_run_stats_memory(struct xb_run_stats *s, const struct xb_memory *m,
		    const struct xbulk_names *names)
{
	s->mem = (struct xbulk_memory_stats){ .size = sizeof(s->mem) };
	s->has_memory = names && !xbulk_names_memory(names, &s->mem);
	if (s->has_memory)
		budget_of(s, m);
	memory_of_result(s, m);
}

void
xb_run_stats_snap_memory(struct xb_run_stats *s, const struct xb_memory *m,
			 const struct xbulk_snap *snap)
{
	s->mem = (struct xbulk_memory_stats){ .size = sizeof(s->mem) };
	s->has_memory = snap && !xbulk_snap_memory(snap, &s->mem);
	if (s->has_memory)
		budget_of(s, m);
	memory_of_result(s, m);
}

/* The peak resident set of the process, bytes: VmHWM of
 * /proc/self/status, else getrusage()'s ru_maxrss. */
static uint64_t
peak_rss(const struct rusage *ru)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long kib;
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %llu kB", &kib) == 1) {
			fclose(f);
			return (uint64_t)kib * 1024;
		}
	if (f)
		fclose(f);
	return (uint64_t)ru->ru_maxrss * 1024;
}

static double
tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* The figures at the end of the run. */
struct run_end {
	double		wall_s, user_s, sys_s;
	uint64_t	peak_rss;
};

static void
text_report(FILE *f, const struct xb_run_stats *s, const struct run_end *e)
{
	const struct xbulk_names_result *n = &s->names;
	const struct xbulk_memory_stats *m = &s->mem;
	char b[4][32];

	fprintf(f, "%s: %s: %s in %s\n", s->cmd, s->path,
		s->completed ? "done" : "stopped",
		xb_fig_dur(b[0], sizeof(b[0]), e->wall_s));
	if (s->has_names)
		fprintf(f, "  strategy: %s\n", strategy_name(s));
	/* a plain walk builds nothing */
	if (s->has_names && n->strategy != XBULK_STRATEGY_PLAIN) {
		fprintf(f, "  scan    : %" PRIu64 " records, %" PRIu64
			" ioctl calls, %u thread%s, %s\n", n->scan_records,
			n->scan_calls, n->scan_threads,
			n->scan_threads == 1 ? "" : "s",
			xb_fig_dur(b[0], sizeof(b[0]), n->scan_s));
		fprintf(f, "  names   : %" PRIu64 " inodes kept, %" PRIu64
			" directories, %" PRIu64 " names (%" PRIu64
			" folded); read %s, linked %s\n",
			n->inodes, n->dirs, n->names, n->folded,
			xb_fig_dur(b[0], sizeof(b[0]), n->read_s),
			xb_fig_dur(b[1], sizeof(b[1]), n->link_s));
		fprintf(f, "  store   : inodes %s, names %s after the "
			"build (held or spilled)\n",
			xb_fig_iec(b[0], sizeof(b[0]), (double)n->store_bytes),
			xb_fig_iec(b[1], sizeof(b[1]),
				   (double)n->names_bytes));
	}
	if (s->has_memory)
		fprintf(f, "  memory  : budget %s, held %s, spilled %s "
			"(%" PRIu64 " trims) in %s\n",
			xb_fig_iec(b[0], sizeof(b[0]), (double)m->budget),
			xb_fig_iec(b[1], sizeof(b[1]), (double)m->held_bytes),
			xb_fig_iec(b[2], sizeof(b[2]), (double)m->spill_bytes),
			m->spill_trims, m->tmpdir);
	if (s->has_export)
		fprintf(f, "  export  : %" PRIu64 " inodes, %" PRIu64
			" entries, %s written\n", s->records, s->links,
			xb_fig_iec(b[0], sizeof(b[0]),
				   (double)s->written_bytes));
	fprintf(f, "  cpu     : usr=%s, sys=%s, peak RSS=%s\n",
		xb_fig_dur(b[0], sizeof(b[0]), e->user_s),
		xb_fig_dur(b[1], sizeof(b[1]), e->sys_s),
		xb_fig_iec(b[2], sizeof(b[2]), (double)e->peak_rss));
}

/* @v if @have, else null */
static uint64_t
u64_if(bool have, uint64_t v)
{
	return have ? v : XBULK_STAT_NA;
}

static double
num_if(bool have, double v)
{
	return have ? v : -1;
}

/* One flat object, as bulkstat's: what the command did not do is null. */
static void
json_report(FILE *f, const struct xb_run_stats *s, const struct run_end *e)
{
	const struct xbulk_names_result *n = &s->names;
	const struct xbulk_memory_stats *m = &s->mem;
	bool nb = s->has_names, mb = s->has_memory, eb = s->has_export;

	fprintf(f, "{\n  \"xbulk_version\": \"%s\",\n  \"command\": \"%s\",\n"
		"  \"path\": ", XBULK_VERSION_STRING, s->cmd);
	xb_json_str(f, s->path);
	fprintf(f, ",\n  \"completed\": %s,\n  ",
		s->completed ? "true" : "false");
	xb_json_num(f, "wall_s", e->wall_s, ",\n  ");
	xb_json_num(f, "user_s", e->user_s, ",\n  ");
	xb_json_num(f, "sys_s", e->sys_s, ",\n  ");
	xb_json_u64(f, "peak_rss_bytes", e->peak_rss, ",\n  ");
	/* the names build */
	fputs("\"strategy\": ", f);
	if (nb)
		xb_json_str(f, strategy_name(s));
	else
		fputs("null", f);
	fputs(",\n  ", f);
	xb_json_u64(f, "scan_records", u64_if(nb, n->scan_records), ",\n  ");
	xb_json_u64(f, "ioctl_calls", u64_if(nb, n->scan_calls), ",\n  ");
	xb_json_u64(f, "threads", u64_if(nb, n->scan_threads), ",\n  ");
	xb_json_u64(f, "inodes", u64_if(nb, n->inodes), ",\n  ");
	xb_json_u64(f, "dirs", u64_if(nb, n->dirs), ",\n  ");
	xb_json_u64(f, "names", u64_if(nb, n->names), ",\n  ");
	xb_json_u64(f, "names_folded", u64_if(nb, n->folded), ",\n  ");
	xb_json_num(f, "scan_s", num_if(nb, n->scan_s), ",\n  ");
	xb_json_num(f, "read_s", num_if(nb, n->read_s), ",\n  ");
	xb_json_num(f, "link_s", num_if(nb, n->link_s), ",\n  ");
	xb_json_u64(f, "store_bytes", u64_if(nb, n->store_bytes), ",\n  ");
	xb_json_u64(f, "names_bytes", u64_if(nb, n->names_bytes), ",\n  ");
	/* the budget */
	xb_json_u64(f, "memory_budget_bytes", u64_if(mb, m->budget), ",\n  ");
	xb_json_u64(f, "memory_held_bytes", u64_if(mb, m->held_bytes),
		    ",\n  ");
	xb_json_u64(f, "spill_bytes", u64_if(mb, m->spill_bytes), ",\n  ");
	xb_json_u64(f, "spill_trims", u64_if(mb, m->spill_trims), ",\n");
	fputs("  \"tmpdir\": ", f);
	if (mb)
		xb_json_str(f, m->tmpdir);
	else
		fputs("null", f);
	fputs(",\n  ", f);
	/* export */
	xb_json_u64(f, "export_inodes", u64_if(eb, s->records), ",\n  ");
	xb_json_u64(f, "export_entries", u64_if(eb, s->links), ",\n  ");
	xb_json_u64(f, "written_bytes", u64_if(eb, s->written_bytes), "\n");
	fputs("}\n", f);
}

int
xb_run_stats_end(struct xb_run_stats *s)
{
	struct run_end e;
	struct rusage ru;
	FILE *f = stderr;
	int err = 0;

	xb_progress_end(&s->progress);
	if (!s->stats || !s->cmd)	/* the run never started */
		return 0;
	getrusage(RUSAGE_SELF, &ru);
	e = (struct run_end){
		.wall_s = (double)(xb_mono_ns() - s->start_ns) / 1e9,
		.user_s = tv_s(&ru.ru_utime),
		.sys_s = tv_s(&ru.ru_stime),
		.peak_rss = peak_rss(&ru),
	};
	s->mem.tmpdir[sizeof(s->mem.tmpdir) - 1] = '\0';
	if (s->out)
		f = s->out;
	if (s->stats == XB_STATS_JSON)
		json_report(f, s, &e);
	else
		text_report(f, s, &e);
	if (s->out) {
		s->out = NULL;
		if (ferror(f) | fclose(f)) {
			xb_error(s->cmd, "--stats-file: %s: %s", s->file,
				 strerror(errno));
			err = -EIO;
		}
	} else if (fflush(stderr) || ferror(stderr)) {
		err = -EIO;	/* no message: stderr is what failed */
	}
	return err;
}

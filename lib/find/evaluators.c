// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What each primary does to a file, as GNU find 4.9's pred.c: the tests
 * and the actions that args.c's table names.  A test the bulkstat record
 * can decide has a @pre, three-valued on a bare record (the pre-filter,
 * eval.c), and xf_eval_record() as its @eval; the others read the name,
 * the link target, the directory or the filesystem.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <string.h>
#include <sys/stat.h>

#include "facts.h"
#include "actions.h"
#include "evaluators.h"

bool
xf_eval_record(struct xbulk_find *f, const struct xf_node *n,
	       struct xf_state *st)
{
	return n->prim->pre(f, n, st->file->bs) == XF_V_TRUE;
}

int
xf_pre_true(const struct xbulk_find *f, const struct xf_node *n,
	    const struct xfs_bulkstat *bs)
{
	(void)f, (void)n, (void)bs;
	return XF_V_TRUE;
}

int
xf_pre_false(const struct xbulk_find *f, const struct xf_node *n,
	     const struct xfs_bulkstat *bs)
{
	(void)f, (void)n, (void)bs;
	return XF_V_FALSE;
}

/* The name -name matches: the base name, trailing slashes stripped. */
static const char *
base_name(const struct xbulk_entry *file, char *buf, size_t size)
{
	const char *p = file->path;
	size_t end = file->pathlen, start;

	if (file->depth > 0)
		return p + file->name_off;
	while (end > 1 && p[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && p[start - 1] != '/')
		start--;
	if (start == end)		/* "/" or "//" */
		start = end - 1;
	if (end - start >= size)
		return "";
	memcpy(buf, p + start, end - start);
	buf[end - start] = 0;
	return buf;
}

bool
xf_eval_name(struct xbulk_find *f, const struct xf_node *n,
	     struct xf_state *st)
{
	char buf[4096];

	(void)f;
	return !fnmatch(n->u.match.pattern, base_name(st->file, buf,
						      sizeof(buf)),
			n->u.match.flags);
}

bool
xf_eval_path(struct xbulk_find *f, const struct xf_node *n,
	     struct xf_state *st)
{
	(void)f;
	return !fnmatch(n->u.match.pattern, st->file->path, n->u.match.flags);
}

int
xf_pre_lname(const struct xbulk_find *f, const struct xf_node *n,
	     const struct xfs_bulkstat *bs)
{
	(void)f, (void)n;
	return S_ISLNK(bs->bs_mode) ? XF_V_UNKNOWN : XF_V_FALSE;
}

bool
xf_eval_lname(struct xbulk_find *f, const struct xf_node *n,
	      struct xf_state *st)
{
	const char *s;

	if (!S_ISLNK(st->file->bs->bs_mode))
		return false;
	s = xf_readlink(f, st->file);
	return s && !fnmatch(n->u.match.pattern, s, n->u.match.flags);
}

bool
xf_eval_regex(struct xbulk_find *f, const struct xf_node *n,
	      struct xf_state *st)
{
	const struct xbulk_entry *file = st->file;

	(void)f;
	return re_match(n->u.regex, file->path, (int)file->pathlen, 0,
			NULL) == (int)file->pathlen;
}

/* Is file type @mode one of @n's (-type, -xtype)? */
static bool
type_is(const struct xf_node *n, uint32_t mode)
{
	return (n->u.types >> ((mode & S_IFMT) >> 12)) & 1;
}

int
xf_pre_type(const struct xbulk_find *f, const struct xf_node *n,
	    const struct xfs_bulkstat *bs)
{
	(void)f;
	return type_is(n, bs->bs_mode);
}

bool
xf_eval_type(struct xbulk_find *f, const struct xf_node *n,
	     struct xf_state *st)
{
	const struct xbulk_entry *file = st->file;
	uint32_t mode = file->bs->bs_mode;

	(void)f;
	/* find -type reads the directory entry's type: at a mount over a
	 * file, the covered file's */
	if (xf_covered(file))
		mode = DTTOIF(file->dtype);
	return type_is(n, mode);
}

int
xf_pre_xtype(const struct xbulk_find *f, const struct xf_node *n,
	     const struct xfs_bulkstat *bs)
{
	(void)f;
	return S_ISLNK(bs->bs_mode) ? XF_V_UNKNOWN : type_is(n, bs->bs_mode);
}

/* -xtype: the type of what a symlink points to (find's stat fallback);
 * under -L, where the walk followed it, of the link itself (lstat). */
bool
xf_eval_xtype(struct xbulk_find *f, const struct xf_node *n,
	      struct xf_state *st)
{
	uint32_t mode = st->file->bs->bs_mode;
	struct stat st_target;
	int err;

	if (f->logical) {
		err = xf_stat_target(f, st->file, &st_target,
				     AT_SYMLINK_NOFOLLOW);
		if (!err)
			return type_is(n, st_target.st_mode);
		xf_problem(f, st->file->path, err);
		return false;
	}
	if (!S_ISLNK(mode))
		return type_is(n, mode);
	err = xf_stat_target(f, st->file, &st_target, 0);
	if (!err)
		return type_is(n, st_target.st_mode);
	if (err == -ENOENT || err == -ENOTDIR)
		return type_is(n, mode);
	xf_problem(f, st->file->path, err);
	return false;
}

/* The record's value of a numeric test's field. */
static uint64_t
field_value(const struct xbulk_find *f, const struct xfs_bulkstat *bs,
	    enum xf_field field)
{
	switch (field) {
	case XF_FLD_UID: return bs->bs_uid;
	case XF_FLD_GID: return bs->bs_gid;
	case XF_FLD_NLINK: return bs->bs_nlink;
	case XF_FLD_INO: return bs->bs_ino;
	case XF_FLD_SIZE: return bs->bs_size;
	case XF_FLD_EXTENTS: return bs->bs_extents64;
	case XF_FLD_AEXTENTS: return bs->bs_aextents;
	case XF_FLD_PROJID: return bs->bs_projectid;
	case XF_FLD_EXTSIZE:
		return (uint64_t)bs->bs_extsize_blks << f->blocklog;
	case XF_FLD_COWEXTSIZE:
		return (uint64_t)bs->bs_cowextsize_blks << f->blocklog;
	}
	return 0;
}

static bool
compare(enum xf_cmp cmp, uint64_t v, uint64_t n)
{
	return cmp == XF_CMP_GT ? v > n : cmp == XF_CMP_LT ? v < n : v == n;
}

/* -size and the XFS sizes: in @n's units, rounded up. */
int
xf_pre_size(const struct xbulk_find *f, const struct xf_node *n,
	    const struct xfs_bulkstat *bs)
{
	return compare(n->u.num.cmp, (field_value(f, bs, n->u.num.field) +
				      n->u.num.unit - 1) / n->u.num.unit,
		       n->u.num.n);
}

int
xf_pre_empty(const struct xbulk_find *f, const struct xf_node *n,
	     const struct xfs_bulkstat *bs)
{
	(void)f, (void)n;
	if (S_ISREG(bs->bs_mode))
		return bs->bs_size == 0;
	return S_ISDIR(bs->bs_mode) ? XF_V_UNKNOWN : XF_V_FALSE;
}

bool
xf_eval_empty(struct xbulk_find *f, const struct xf_node *n,
	      struct xf_state *st)
{
	if (S_ISDIR(st->file->bs->bs_mode))
		return xf_dir_entries(f, st->file) == 0;
	return xf_pre_empty(f, n, st->file->bs) == XF_V_TRUE;
}

/* find's ts_difference(): a - b in seconds, as a double. */
static double
ts_diff(int64_t asec, int64_t ansec, struct timespec b)
{
	return ((double)asec - (double)b.tv_sec) + 1e-9 * (double)(ansec -
								   b.tv_nsec);
}

/*
 * -used N: accessed N days after the status change, as find 4.9 answers
 * it: never for a file accessed before it changed; N (exactly) is
 * [N - 1, N) days, so a file accessed as it changed is -used 1, not
 * -used 0.  @n's reference is -N days with the comparison inverted, as
 * for the other times.
 */
static int
test_used(const struct xf_node *n, int64_t sec, int64_t nsec)
{
	double d = (double)sec + 1e-9 * (double)nsec;
	double days = -((double)n->u.time.ref.tv_sec +
			1e-9 * (double)n->u.time.ref.tv_nsec);

	if (sec < 0)
		return XF_V_FALSE;
	switch (n->u.time.cmp) {
	case XF_CMP_LT:
		return d > days;
	case XF_CMP_GT:
		return d < days;
	default:
		return d >= days - 86400 && d < days;
	}
}

/* -atime and friends, -newer and friends: find's pred_timewindow(). */
int
xf_pre_time(const struct xbulk_find *f, const struct xf_node *n,
	    const struct xfs_bulkstat *bs)
{
	int64_t sec, nsec;
	double d;

	(void)f;
	if (n->u.time.used) {		/* atime - ctime */
		sec = bs->bs_atime - bs->bs_ctime;
		nsec = (int64_t)bs->bs_atime_nsec - bs->bs_ctime_nsec;
		if (nsec < 0) {
			nsec += 1000000000;
			sec--;
		}
		return test_used(n, sec, nsec);
	}
	if (n->u.time.which == XBULK_TIME_BTIME &&
	    bs->bs_version < XFS_BULKSTAT_VERSION_V5)
		return XF_V_FALSE;	/* no birth time (v1) */
	sec = xbulk_time_of(bs, n->u.time.which);
	nsec = xbulk_time_nsec_of(bs, n->u.time.which);
	if (sec == n->u.time.ref.tv_sec && nsec == n->u.time.ref.tv_nsec)
		d = 0;
	else
		d = ts_diff(sec, nsec, n->u.time.ref);
	switch (n->u.time.cmp) {
	case XF_CMP_GT:
		return d > 0;
	case XF_CMP_LT:
		return d < 0;
	default:
		return d > 0 && d <= (double)n->u.time.window;
	}
}

/* -uid -gid -user -group -links and the XFS numbers. */
int
xf_pre_num(const struct xbulk_find *f, const struct xf_node *n,
	   const struct xfs_bulkstat *bs)
{
	return compare(n->u.num.cmp, field_value(f, bs, n->u.num.field),
		       n->u.num.n);
}

/* -inum: the directory entry's inode number (xf_ino()). */
bool
xf_eval_inum(struct xbulk_find *f, const struct xf_node *n,
	     struct xf_state *st)
{
	(void)f;
	return compare(n->u.num.cmp, xf_ino(st->file), n->u.num.n);
}

bool
xf_eval_nouser(struct xbulk_find *f, const struct xf_node *n,
	       struct xf_state *st)
{
	(void)n;
	return !xf_user_name(f, st->file->bs->bs_uid);
}

bool
xf_eval_nogroup(struct xbulk_find *f, const struct xf_node *n,
		struct xf_state *st)
{
	(void)n;
	return !xf_group_name(f, st->file->bs->bs_gid);
}

int
xf_pre_perm(const struct xbulk_find *f, const struct xf_node *n,
	    const struct xfs_bulkstat *bs)
{
	uint32_t mode = bs->bs_mode;
	uint32_t want = n->u.perm.mode[S_ISDIR(mode) != 0];

	(void)f;
	switch (n->u.perm.kind) {
	case '-':
		return (mode & want) == want;
	case '/':
		return !want || (mode & want);
	default:
		return (mode & 07777) == want;
	}
}

/* -samefile on a record: an inode of the filesystem scanned. */
int
xf_pre_samefile(const struct xbulk_find *f, const struct xf_node *n,
		const struct xfs_bulkstat *bs)
{
	return bs->bs_ino == n->u.same.ino && f->dev == n->u.same.dev;
}

/* ... on a file, which may lie on a filesystem mounted below a PATH */
bool
xf_eval_samefile(struct xbulk_find *f, const struct xf_node *n,
		 struct xf_state *st)
{
	const struct xbulk_entry *file = st->file;

	return file->bs->bs_ino == n->u.same.ino &&
	       (file->dev ? file->dev : f->dev) == n->u.same.dev;
}

bool
xf_eval_fstype(struct xbulk_find *f, const struct xf_node *n,
	       struct xf_state *st)
{
	(void)f;
	return !strcmp(st->file->fstype ? st->file->fstype : "xfs",
		       n->u.fstype);
}

bool
xf_eval_access(struct xbulk_find *f, const struct xf_node *n,
	       struct xf_state *st)
{
	return xf_access(f, st->file, n->u.access);
}

int
xf_pre_xflag(const struct xbulk_find *f, const struct xf_node *n,
	     const struct xfs_bulkstat *bs)
{
	(void)f;
	return (bs->bs_xflags & n->u.xflags) == n->u.xflags;
}

/* The path with odd characters as '?' on a terminal, then @end. */
static int
print_path(struct xf_stream *out, const struct xbulk_entry *file,
	   char end)
{
	int err;

	if (end) {
		err = xf_put_name(out, file->path, file->pathlen);
		return err ? err : xf_put(out, &end, 1);
	}
	return xf_put(out, file->path, file->pathlen + 1);
}

bool
xf_eval_print(struct xbulk_find *f, const struct xf_node *n,
	      struct xf_state *st)
{
	if (f->record && n->u.act.end == '\n')
		xf_record(f, n->u.act.out, st->file);
	else
		print_path(n->u.act.out, st->file, n->u.act.end);
	return true;
}

bool
xf_eval_printf(struct xbulk_find *f, const struct xf_node *n,
	       struct xf_state *st)
{
	xf_format_run(f, n->u.act.fmt, n->u.act.out, st->file);
	return true;
}

bool
xf_eval_ls(struct xbulk_find *f, const struct xf_node *n,
	   struct xf_state *st)
{
	xf_ls(f, n->u.act.out, st->file);
	return true;
}

bool
xf_eval_prune(struct xbulk_find *f, const struct xf_node *n,
	      struct xf_state *st)
{
	(void)n;
	if (!f->post && S_ISDIR(st->file->bs->bs_mode))
		st->prune = true;
	return true;
}

bool
xf_eval_quit(struct xbulk_find *f, const struct xf_node *n,
	     struct xf_state *st)
{
	(void)f, (void)n;
	st->quit = true;
	return true;
}

bool
xf_eval_exec(struct xbulk_find *f, const struct xf_node *n,
	     struct xf_state *st)
{
	return xf_exec(f, n->u.exec, st->file);
}

bool
xf_eval_delete(struct xbulk_find *f, const struct xf_node *n,
	       struct xf_state *st)
{
	(void)n;
	return xf_delete(f, st->file);
}

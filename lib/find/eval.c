// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Evaluating a compiled find expression on one file (GNU find 4.9's
 * pred.c semantics), and the same tree three-valued on a bare bulkstat
 * record: the pre-filter that drops inodes no name can make act.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "find.h"

/* Three-valued results: a test on a record without its name. */
enum { V_FALSE = 0, V_TRUE = 1, V_UNKNOWN = 2 };

/* One evaluation: the file as the tests see it, and what it asked of
 * the walk. */
struct xf_state {
	const struct xbulk_entry *file;
	bool	have_stat;	/* file->bs is find's stat() of it */
	bool	prune;
	bool	quit;
};

/* The record's value of an XF_NUM or XF_SIZE field. */
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
		return V_FALSE;
	switch (n->u.time.cmp) {
	case XF_CMP_LT:
		return d > days;
	case XF_CMP_GT:
		return d < days;
	default:
		return d >= days - 86400 && d < days;
	}
}

/* -atime and friends: find's pred_timewindow(). */
static int
test_time(const struct xf_node *n, const struct xfs_bulkstat *bs)
{
	int64_t sec, nsec;
	double d;

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
		return V_FALSE;		/* no birth time (v1) */
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

static int
test_perm(const struct xf_node *n, uint32_t mode)
{
	uint32_t want = n->u.perm.mode[S_ISDIR(mode) != 0];

	switch (n->u.perm.kind) {
	case '-':
		return (mode & want) == want;
	case '/':
		return !want || (mode & want);
	default:
		return (mode & 07777) == want;
	}
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

/* -xtype: the type of what a symlink points to (find's stat fallback). */
static int
xtype(struct xbulk_find *f, const struct xbulk_entry *file,
      uint32_t mode)
{
	struct stat st;
	int err;

	if (!S_ISLNK(mode))
		return (int)mode;
	err = xf_stat_target(f, file, &st);
	if (!err)
		return (int)st.st_mode;
	if (err == -ENOENT || err == -ENOTDIR)
		return (int)mode;
	xf_problem(f, file->path, err);
	return -1;
}

/*
 * A test on a file, or on a bare record when @file is NULL (then tests
 * that need the name give V_UNKNOWN).
 */
static int
test(struct xbulk_find *f, const struct xf_node *n,
     const struct xbulk_entry *file, const struct xfs_bulkstat *bs)
{
	uint32_t mode = bs->bs_mode;
	const char *s;
	char buf[4096];
	int m;

	switch (n->kind) {
	case XF_TRUE:
		return V_TRUE;
	case XF_FALSE:
		return V_FALSE;
	case XF_TYPE:
		/* find -type reads the directory entry's type: at a mount
		 * over a file, the covered file's */
		if (file && (file->flags & XBULK_ENTRY_MOUNT) &&
		    file->dtype != DT_UNKNOWN)
			mode = DTTOIF(file->dtype);
		return (n->u.types >> ((mode & S_IFMT) >> 12)) & 1;
	case XF_SIZE:
		return compare(n->u.num.cmp,
			       (field_value(f, bs, n->u.num.field) +
				n->u.num.unit - 1) / n->u.num.unit, n->u.num.n);
	case XF_NUM:
		return compare(n->u.num.cmp, file && n->u.num.field ==
			       XF_FLD_INO ? xf_ino(file) :
			       field_value(f, bs, n->u.num.field), n->u.num.n);
	case XF_TIME:
	case XF_NEWER:
		return test_time(n, bs);
	case XF_PERM:
		return test_perm(n, mode);
	case XF_XFLAG:
		return (bs->bs_xflags & n->u.xflags) == n->u.xflags;
	case XF_SAMEFILE:
		return bs->bs_ino == n->u.same.ino &&
		       (file && file->dev ? file->dev : f->dev) == n->u.same.dev;
	case XF_EMPTY:
		if (S_ISREG(mode))
			return bs->bs_size == 0;
		if (!S_ISDIR(mode))
			return V_FALSE;
		return file ? xf_dir_entries(f, file) == 0 : V_UNKNOWN;
	case XF_LNAME:
		if (!S_ISLNK(mode))
			return V_FALSE;
		break;
	case XF_XTYPE:
		if (!S_ISLNK(mode))
			return (n->u.types >> ((mode & S_IFMT) >> 12)) & 1;
		break;
	default:
		break;
	}
	if (!file)
		return V_UNKNOWN;
	switch (n->kind) {
	case XF_NAME:
		return !fnmatch(n->u.match.pattern,
				base_name(file, buf, sizeof(buf)),
				n->u.match.flags);
	case XF_PATH:
		return !fnmatch(n->u.match.pattern, file->path,
				n->u.match.flags);
	case XF_REGEX:
		return re_match(n->u.regex, file->path, (int)file->pathlen, 0,
				NULL) == (int)file->pathlen;
	case XF_LNAME:
		s = xf_readlink(f, file);
		return s && !fnmatch(n->u.match.pattern, s, n->u.match.flags);
	case XF_XTYPE:
		m = xtype(f, file, mode);
		return m >= 0 && ((n->u.types >> ((m & S_IFMT) >> 12)) & 1);
	case XF_NOUSER:
		return !xf_user_name(f, bs->bs_uid);
	case XF_NOGROUP:
		return !xf_group_name(f, bs->bs_gid);
	case XF_FSTYPE:
		return !strcmp(file->fstype ? file->fstype : "xfs",
			       n->u.fstype);
	case XF_ACCESS:
		return xf_access(f, file, n->u.access);
	default:
		return V_FALSE;
	}
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

/*
 * Before a test of the file's status (find's get_info()): find stats a
 * file when a test first needs it, so once the expression changed the
 * filesystem the record the walk gave may be stale and the file is
 * stat()ed now; a directory's record is its stat from when the walk
 * reached it, as fts's is.  False if the stat failed (told).
 */
static bool
need_stat(struct xbulk_find *f, const struct xf_node *n, struct xf_state *st)
{
	const struct xbulk_entry *file = st->file;

	if (st->have_stat || !(n->fields & XF_F_STAT))
		return true;
	/* -inum: d_ino is find's answer but for a directory */
	if (n->kind == XF_NUM && n->u.num.field == XF_FLD_INO &&
	    !S_ISDIR(file->bs->bs_mode) && file->bs->bs_mode)
		return true;
	if (f->changed || (file->flags & XBULK_ENTRY_LAZY)) {
		file = xf_stat(f, file);
		if (!file)
			return false;
		st->file = file;
	}
	st->have_stat = true;
	return true;
}

static bool
act(struct xbulk_find *f, const struct xf_node *n, struct xf_state *st)
{
	const struct xbulk_entry *file;

	if (!need_stat(f, n, st))
		return false;
	file = st->file;
	switch (n->kind) {
	case XF_PRINT:
		if (f->record && n->u.act.end == '\n')
			xf_record(f, n->u.act.out, file);
		else
			print_path(n->u.act.out, file, n->u.act.end);
		break;
	case XF_PRINTF:
		xf_format_run(f, n->u.act.fmt, n->u.act.out, file);
		break;
	case XF_LS:
		xf_ls(f, n->u.act.out, file);
		break;
	case XF_PRUNE:
		if (!f->post && S_ISDIR(file->bs->bs_mode))
			st->prune = true;
		break;
	case XF_QUIT:
		st->quit = true;
		break;
	case XF_EXEC:
		return xf_exec(f, n->u.exec, file);
	case XF_DELETE:
		return xf_delete(f, file);
	default:
		return test(f, n, file, file->bs) == V_TRUE;
	}
	/* find's stderr is unbuffered: -fprint /dev/stderr goes out now,
	 * before what stdout holds */
	if ((n->kind == XF_PRINT || n->kind == XF_PRINTF || n->kind == XF_LS) &&
	    n->u.act.out->out.fd == STDERR_FILENO)
		xf_stream_flush(n->u.act.out);
	return true;
}

static bool
eval(struct xbulk_find *f, const struct xf_node *n, struct xf_state *st)
{
	bool l;

	switch (n->kind) {
	case XF_AND:
		return eval(f, n->left, st) && !st->quit && !f->fatal &&
		       eval(f, n->right, st);
	case XF_OR:
		l = eval(f, n->left, st);
		return l || (!st->quit && !f->fatal && eval(f, n->right, st));
	case XF_COMMA:
		eval(f, n->left, st);
		return !st->quit && !f->fatal && eval(f, n->right, st);
	case XF_NOT:
		return !eval(f, n->right, st);
	default:
		return act(f, n, st);
	}
}

static int
eval_entry(struct xbulk_find *f, const struct xbulk_entry *file, bool post)
{
	/* a directory's record is from when the walk reached it (before
	 * any change, or stat()ed then); another file's is stat()ed when a
	 * test needs it (need_stat()) */
	struct xf_state st = {
		.file = file,
		.have_stat = (file->flags & XBULK_ENTRY_LIVE) ||
			     (S_ISDIR(file->bs->bs_mode) && !f->changed &&
			      !(file->flags & XBULK_ENTRY_LAZY)) ||
			     (post && !(file->flags & XBULK_ENTRY_LAZY)),
	};
	bool dir = S_ISDIR(file->bs->bs_mode);
	bool at_max = f->maxdepth >= 0 && file->depth >= (unsigned)f->maxdepth;
	int ret = 0;

	if (!f->started) {
		f->started = true;
		xf_record_headers(f);
	}
	if (post && (!f->post || at_max))
		return 0;
	if (f->post && dir && !post && !at_max)
		return 0;		/* -depth: after the contents */
	if (file->depth >= (unsigned)f->mindepth &&
	    (f->maxdepth < 0 || file->depth <= (unsigned)f->maxdepth))
		eval(f, f->root, &st);
	if (dir && (at_max || st.prune))
		ret = XBULK_WALK_PRUNE;
	if (st.quit || f->fatal)
		ret = XBULK_WALK_STOP;
	if (f->streams[0]->err)
		return f->streams[0]->err;
	return ret;
}

int
xbulk_find_visit(void *arg, const struct xbulk_entry *e,
		 enum xbulk_visit visit)
{
	struct xbulk_find *f = arg;
	struct xbulk_entry unread;
	int ret;

	/* "{} +" of -execdir runs where find's walk changes depth */
	if (f->execdir_plus && ((int)e->depth != f->level ||
				(!e->depth && visit == XBULK_VISIT_PRE)))
		xf_exec_flush(f, true);
	f->level = (int)e->depth;
	/* -delete removed names that a later PATH may list */
	if (f->deleted && !f->changed && !e->depth &&
	    visit == XBULK_VISIT_PRE) {
		f->changed = true;
		if (f->opts.changed)
			f->opts.changed(f->opts.arg);
	}
	if (f->fatal)
		return XBULK_WALK_STOP;
	/* a file that vanished before the walk could stat it: find says so
	 * and goes on with what it knows (the name) */
	if ((e->flags & XBULK_ENTRY_LAZY) && e->err)
		xf_problem(f, e->path, e->err);
	if (e->flags & XBULK_ENTRY_BAD_INODE) {
		xf_problem(f, e->path, e->err);
		return 0;
	}
	if ((e->flags & XBULK_ENTRY_MOUNT) && e->err &&
	    visit == XBULK_VISIT_PRE)
		xf_problem(f, e->path, e->err);
	/* find's -empty on a directory it cannot read is false */
	if ((e->flags & XBULK_ENTRY_UNREADABLE) && !e->nentries) {
		unread = *e;
		unread.nentries = 1;
		e = &unread;
	}
	/* a directory read when the walk entered it, after a change, that
	 * could not be (find's FTS_DNR): said, then evaluated with -depth */
	if ((e->flags & XBULK_ENTRY_UNREADABLE) &&
	    (e->flags & XBULK_ENTRY_LIVE) && visit == XBULK_VISIT_POST)
		xf_problem(f, e->path, e->err);
	ret = eval_entry(f, e, visit == XBULK_VISIT_POST);
	/* said where find reads it: when it descends (not at -maxdepth,
	 * not pruned) */
	if ((e->flags & XBULK_ENTRY_UNREADABLE) && visit == XBULK_VISIT_PRE &&
	    !ret)
		xf_problem(f, e->path, e->err);
	return ret;
}

/* The pre-filter's view of a subtree: its value and whether it may act. */
struct xf_pre {
	int	val;
	bool	acts;
};

static struct xf_pre
pre(const struct xbulk_find *f, const struct xf_node *n,
    const struct xfs_bulkstat *bs)
{
	struct xf_pre l, r;

	switch (n->kind) {
	case XF_AND:
	case XF_OR:
		l = pre(f, n->left, bs);
		if (l.val == (n->kind == XF_OR ? V_TRUE : V_FALSE))
			return l;
		r = pre(f, n->right, bs);
		r.acts = r.acts || l.acts;
		if (l.val == V_UNKNOWN && r.val != l.val)
			r.val = r.val == (n->kind == XF_OR) ? r.val : V_UNKNOWN;
		return r;
	case XF_COMMA:
		l = pre(f, n->left, bs);
		r = pre(f, n->right, bs);
		r.acts = r.acts || l.acts;
		return r;
	case XF_NOT:
		r = pre(f, n->right, bs);
		if (r.val != V_UNKNOWN)
			r.val = !r.val;
		return r;
	case XF_PRINT:
	case XF_PRINTF:
	case XF_LS:
	case XF_QUIT:
		return (struct xf_pre){ V_TRUE, true };
	case XF_EXEC:
	case XF_DELETE:
		return (struct xf_pre){ V_UNKNOWN, true };
	case XF_PRUNE:			/* no effect on a non-directory */
		return (struct xf_pre){ V_TRUE, false };
	default:
		return (struct xf_pre){
			test((struct xbulk_find *)f, n, NULL, bs), false };
	}
}

bool
xbulk_find_keep(void *arg, const struct xfs_bulkstat *bs)
{
	const struct xbulk_find *f = arg;

	/* -execdir ... {} + batches by the walk's depth: every entry counts */
	return f->execdir_plus || pre(f, f->root, bs).acts;
}

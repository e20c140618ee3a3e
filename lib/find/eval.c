// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Evaluating a compiled find expression on one file (GNU find 4.9's
 * semantics: each primary's evaluator, evaluators.c, as its row in
 * args.c's table names it), and the same tree three-valued on a bare
 * bulkstat record: the pre-filter that drops inodes no name can make
 * act, from the rows' @pre.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actions.h"
#include "evaluators.h"

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
	if ((n->prim->props & XF_P_STAT_DIR) &&
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
	bool ret;

	if (!need_stat(f, n, st))
		return false;
	ret = n->prim->eval(f, n, st);
	/* find's stderr is unbuffered: -fprint /dev/stderr goes out now,
	 * before what stdout holds */
	if ((n->prim->props & XF_P_STREAM) &&
	    n->u.act.out->out.fd == STDERR_FILENO)
		xf_stream_flush(n->u.act.out);
	return ret;
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
	/* -L: a directory met again below itself, or a symbolic link that
	 * leads round in a loop: said, and not evaluated (find's FTS_DC,
	 * and its symlink_loop() check of FTS_NS) */
	if (e->flags & XBULK_ENTRY_LOOP) {
		size_t n = (size_t)e->nentries;
		char *above = n ? strndup(e->path, n) : NULL;

		if (!above) {
			xf_problem(f, e->path, e->err);
			return 0;
		}
		f->problems++;
		xf_error(f, "File system loop detected; %s is part of the same "
			 "file system loop as %s.", xf_quote(f, 0, e->path),
			 xf_quote(f, 1, above));
		free(above);
		return 0;
	}
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
		if (l.val == (n->kind == XF_OR ? XF_V_TRUE : XF_V_FALSE))
			return l;
		r = pre(f, n->right, bs);
		r.acts = r.acts || l.acts;
		if (l.val == XF_V_UNKNOWN && r.val != l.val)
			r.val = r.val == (n->kind == XF_OR) ? r.val :
				XF_V_UNKNOWN;
		return r;
	case XF_COMMA:
		l = pre(f, n->left, bs);
		r = pre(f, n->right, bs);
		r.acts = r.acts || l.acts;
		return r;
	case XF_NOT:
		r = pre(f, n->right, bs);
		if (r.val != XF_V_UNKNOWN)
			r.val = !r.val;
		return r;
	default:
		/* a primary: what its row says */
		return (struct xf_pre){
			n->prim->pre ? n->prim->pre(f, n, bs) : XF_V_UNKNOWN,
			(n->prim->props & XF_P_KEEPS) != 0 };
	}
}

bool
xbulk_find_keep(void *arg, const struct xfs_bulkstat *bs)
{
	const struct xbulk_find *f = arg;

	/* -execdir ... {} + batches by the walk's depth: every entry counts */
	return f->execdir_plus || pre(f, f->root, bs).acts;
}

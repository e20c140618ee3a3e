// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xbulk du's run over the names: one walk per PATH with du's accounting,
 * each counted entry going to du's lines, the --by tables, the --top list
 * or the treemap; or the inodes no walk reaches (--unreachable).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "du.h"

static int
on_table(void *arg, const struct xbulk_entry *e,
	 const struct du_agg_table *t)
{
	return du_print_table(arg, e->path, t);
}

/* du -t: figures of at least N, or with -N of at most N. */
static bool
above_threshold(const struct du_run *r, const struct xbulk_du_sum *s)
{
	uint64_t v = r->inodes ? s->inodes : s->bytes;

	return r->threshold < 0 ? v <= 0 - (uint64_t)r->threshold
				: v >= (uint64_t)r->threshold;
}

/* One entry du counted, with its subtree's sums. */
static int
on_counted(void *arg, const struct xbulk_entry *e,
	   const struct xbulk_du_sum *sum)
{
	struct du_run *r = arg;
	bool dir = S_ISDIR(e->bs->bs_mode);
	int err = 0;

	/* stdout failed (its reader went away, ENOSPC): stop the walk. */
	if (ferror(r->out)) {
		r->err = errno ? -errno : -EIO;
		return r->err;
	}
	if (r->svg)
		err = du_svg_charge(r->svg, e, sum);
	if (!err && r->prom_file.path)
		err = du_prom_charge(&r->prom, e, sum);
	if (!err && r->by_given)
		return du_agg_dirs_charge(&r->dirs, e);
	if (!err && r->top) {
		if (dir == r->top_dirs)
			err = du_top_add(&r->best, r->inodes ? sum->inodes
						     : sum->bytes, sum,
					    e->path, e->bs->bs_ino);
		return err;
	}
	if (!err && (!e->depth || ((dir || r->all) &&
				   e->depth <= r->max_depth)) &&
	    above_threshold(r, sum))
		du_print_line(r, e->path, sum);
	return err;
}

static int
visit(void *arg, const struct xbulk_entry *e, enum xbulk_visit v)
{
	struct du_run *r = arg;

	if (v == XBULK_VISIT_PRE && (e->flags & XBULK_ENTRY_UNREADABLE)) {
		xb_error("du", "cannot read directory '%s': %s%s", e->path,
			 strerror(-e->err), xb_dir_open_hint(e->err));
		r->failed = true;
	} else if (v == XBULK_VISIT_PRE &&
		   (e->flags & XBULK_ENTRY_BAD_INODE)) {
		xb_error("du", "cannot access '%s': %s", e->path,
			 strerror(-e->err));
		r->failed = true;
	}
	if (r->ncdu.f) {
		int err = du_ncdu_visit(&r->ncdu, e, v, v == XBULK_VISIT_PRE &&
					r->nexclude && du_excluded(r, e));

		if (err)
			return err;
	}
	return xbulk_du_visit(r->du, e, v);
}

/* A PATH the walk could not start from: named, and the run goes on
 * (XB_EXIT_OK); out of memory or a signal ends it (their exit status). */
static enum xb_exit
walk_error(struct du_run *r, const char *path, int err)
{
	if (err == -EINTR)
		return xb_signal_exit_status();
	if (err == -ENOMEM) {
		xb_error("du", "%s", strerror(ENOMEM));
		return XB_EXIT_FAILURE;
	}
	du_path_error(path, err);
	r->failed = true;
	return XB_EXIT_OK;
}

void
du_path_error(const char *path, int err)
{
	if (!*path)
		xb_error("du", "invalid zero-length file name");
	else if (err == -EXDEV)
		xb_error("du", "cannot access '%s': not on the XFS mount of "
			 "the other PATHs", path);
	else if (err == -ENOTTY)
		xb_error("du", "cannot access '%s': not on an XFS filesystem",
			 path);
	else if (err == -ESTALE)
		xb_error("du", "cannot access '%s': changed since the scan",
			 path);
	else
		xb_error("du", "cannot access '%s': %s", path, strerror(-err));
}

/* The treemap's owner_name hook. */
static const char *
owner_name(void *arg, uint32_t uid)
{
	return xbulk_ids_user(arg, uid);
}

void
du_acct_init(struct du_run *r, int npaths)
{
	r->acct = (struct xbulk_du_opts){
		.size = sizeof(r->acct),
		.apparent = r->apparent,
		.count_links = r->count_links,
		.hash_all = npaths > 1,
		.separate_dirs = r->separate_dirs,
		.blocklog = r->blocklog,
		.fn = on_counted,
		.exclude = r->nexclude ? du_excluded : NULL,
		.arg = r,
	};
	/* Only directories' lines: a file's entry is not needed (--top of
	 * files, --by, the treemap, --ncdu and --unreachable look at every
	 * file) */
	r->fold = !r->all && !r->by_given && (!r->top || r->top_dirs) &&
		  !r->svg_file.path && !r->ncdu_file.path && !r->prom_file.path &&
		  !r->unreachable &&
		  npaths == 1 &&
		  !r->nexclude;
}

static int
setup(struct du_run *r)
{
	struct du_svg_opts so = {
		.depth = r->svg_depth,
		.color = r->color,
		.time = r->time,
		.now = r->now,
		.title = r->svg_title,
		.owner_name = owner_name,
		.arg = r->ids,
	};
	int err;

	r->acct.names = r->fold ? r->names : NULL;
	err = xbulk_du_new(&r->acct, &r->du);

	du_agg_init(&r->agg, r->by, r->time, r->now, r->blocklog);
	du_prom_init(r);
	if (!err && r->by_given)
		err = du_agg_dirs_init(&r->dirs, &r->agg,
			r->depth_given ? (unsigned int)r->max_depth : 0,
			on_table, r);
	if (!err && r->top)
		err = du_top_init(&r->best, r->top);
	if (!err && r->svg_file.path)
		err = du_svg_new(&so, &r->svg);
	return err;
}

static void
teardown(struct du_run *r)
{
	xbulk_du_free(r->du);
	du_agg_dirs_free(&r->dirs);
	du_agg_free(&r->agg);
	du_top_free(&r->best);
	du_svg_free(r->svg);
}

/* After the walks: the total, the --top list, the picture. */
static enum xb_exit
finish(struct du_run *r)
{
	size_t i;

	if (r->total && r->by_given)
		du_print_table(r, "total", &r->dirs.total);
	else if (r->total && !r->top) {
		du_print_line(r, "total", xbulk_du_total(r->du));
	}
	du_top_sort(&r->best);
	for (i = 0; i < r->best.n; i++)
		du_print_line(r, r->best.heap[i].path, &r->best.heap[i].sum);
	/* The files: put in place by the caller once du succeeded; an
	 * export whose walk could not start is not. */
	if (r->prom_file.out &&
	    du_file_close(&r->prom_file, du_prom_write(r, r->prom_file.out)))
		return XB_EXIT_FAILURE;
	if (r->ncdu.f && !r->ncdu.started)
		du_file_abort(&r->ncdu_file);
	else if (r->ncdu.f && du_file_close(&r->ncdu_file,
					    du_ncdu_end(&r->ncdu)))
		return XB_EXIT_FAILURE;
	return r->svg ? du_file_close(&r->svg_file,
				      du_svg_write(r->svg, r->svg_file.out))
		      : XB_EXIT_OK;
}

/*
 * du's fts_open() leaves one of several trailing slashes ("a//" is walked
 * as "a/", "///" as "/"), where find keeps them: trim @path in place.
 */
static void
trim_slashes(char *path)
{
	size_t len = strlen(path);

	if (len > 2 && path[len - 1] == '/')
		while (len > 1 && path[len - 2] == '/')
			len--;
	path[len] = '\0';
}

enum xb_exit
du_walks(struct du_run *r, char **paths, int npaths)
{
	enum xb_exit ret = XB_EXIT_OK;
	int i, err;

	err = setup(r);
	for (i = 0; !err && !ret && i < npaths; i++) {
		trim_slashes(paths[i]);
		err = xbulk_names_walk(r->names, paths[i], XBULK_WALK_POST,
				       visit, r);
		if (err < 0 && err != -ENOMEM && err != -EINTR &&
		    err != r->err && err != r->ncdu.err) {
			ret = walk_error(r, paths[i], err);
			err = 0;
		}
	}
	if (err == -EINTR)
		ret = xb_signal_exit_status();
	else if (err < 0 && err == r->err)
		ret = xb_write_error("du", err);
	else if (err < 0 && err == r->ncdu.err)
		ret = du_file_close(&r->ncdu_file, err);
	else if (err < 0) {
		xb_error("du", "%s", strerror(-err));
		ret = XB_EXIT_FAILURE;
	}
	if (!ret)
		ret = finish(r);
	teardown(r);
	return ret;
}

static int
on_unreached(void *arg, const struct xfs_bulkstat *bs)
{
	struct du_run *r = arg;
	struct xbulk_entry e = { .path = "", .bs = bs };
	uint64_t key;
	int err;

	r->lost.bytes += xbulk_du_bytes(bs, r->blocklog, r->apparent);
	r->lost.inodes++;
	if (!r->by_given) {
		du_print_unreached(r, bs);
		return 0;
	}
	err = du_agg_key(&r->agg, &e, &key);
	return err ? err : du_agg_add(&r->table, &r->agg, key, bs);
}

enum xb_exit
du_unreachable(struct du_run *r)
{
	int err;

	du_agg_init(&r->agg, r->by, r->time, r->now, r->blocklog);
	err = xbulk_names_unreached(r->names, on_unreached, r);
	if (!err && r->by_given)
		err = du_print_table(r, "(unreachable)", &r->table);
	else if (!err && r->format == XB_FORMAT_TEXT)
		/* JSON Lines and CSV rows are the inodes alone: the total
		 * would be a row of another shape. */
		du_print_line(r, "total", &r->lost);
	du_agg_table_free(&r->table);
	du_agg_free(&r->agg);
	if (err == -EINTR)
		return xb_signal_exit_status();
	if (err) {
		xb_error("du", "%s", strerror(-err));
		return XB_EXIT_FAILURE;
	}
	return XB_EXIT_OK;
}

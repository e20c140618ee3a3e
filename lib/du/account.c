// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * du's accounting over the names engine's walk, the rules of GNU du
 * (coreutils 9.1 src/du.c, process_file()): an inode with several links
 * counts at the first path the walk reaches it by, directories count
 * after their contents, each level keeps the sum of its own entries and
 * of the subtrees below them, and the sums climb one level at a time.
 * Files the names folded into their directory (xbulk_du_fold()) count
 * as that directory's first entries.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "inoset.h"

struct level {
	struct xbulk_du_sum	ent;	/* entries of this directory */
	struct xbulk_du_sum	subdir;	/* everything below them */
};

struct xbulk_du {
	struct xbulk_du_opts	o;
	struct xbd_inoset	seen;	/* inodes counted already */
	struct xbulk_du_sum	total;
	struct level		*lvl;
	size_t			nlvl;
	size_t			prev_level;
	/* The last visit pruned a directory: the next is its post-order
	 * visit, which is ignored too. */
	bool			pruned;
};

/* The first version of struct xbulk_du_opts (0.3) ends with @arg. */
#define OPTS_SIZE_1	XBL_SIZE_TO(struct xbulk_du_opts, arg)

int
xbulk_du_new(const struct xbulk_du_opts *o, struct xbulk_du **dup)
{
	struct xbulk_du *du = calloc(1, sizeof(*du));
	int err;

	*dup = NULL;
	if (!du)
		return -ENOMEM;
	err = xbl_sized_in(&du->o, sizeof(du->o), o, OPTS_SIZE_1);
	if (err) {
		free(du);
		return err;
	}
	du->nlvl = 16;
	du->lvl = calloc(du->nlvl, sizeof(*du->lvl));
	if (!du->lvl) {
		free(du);
		return -ENOMEM;
	}
	*dup = du;
	return 0;
}

void
xbulk_du_free(struct xbulk_du *du)
{
	if (!du)
		return;
	xbd_inoset_free(&du->seen);
	free(du->lvl);
	free(du);
}

const struct xbulk_du_sum *
xbulk_du_total(const struct xbulk_du *du)
{
	return &du->total;
}

static void
add(struct xbulk_du_sum *a, const struct xbulk_du_sum *b)
{
	a->bytes += b->bytes;
	a->inodes += b->inodes;
}

/*
 * Does @e count?  Not a mount point of another filesystem (below the
 * operand), not excluded, nor an inode counted already when du would
 * look it up: a non-directory with several links, or anything with
 * several operands.
 * Return 1 (counts), 0 (left out) or -ENOMEM.
 */
static int
counts(struct xbulk_du *du, const struct xbulk_entry *e)
{
	const struct xfs_bulkstat *bs = e->bs;

	if (e->depth && (e->flags & XBULK_ENTRY_MOUNT))
		return 0;
	if (du->o.exclude && du->o.exclude(du->o.arg, e))
		return 0;
	if (du->o.count_links)
		return 1;
	if (!du->o.hash_all && (S_ISDIR(bs->bs_mode) ||
				(bs->bs_nlink < 2 &&
				 !(e->flags & XBULK_ENTRY_LINKED))))
		return 1;
	return xbd_inoset_add(&du->seen, bs->bs_ino);
}

/* Make room for levels 0..@level and clear those entered anew. */
static int
enter_level(struct xbulk_du *du, size_t level)
{
	size_t i;

	if (level >= du->nlvl) {
		size_t n = level * 2;
		struct level *l = realloc(du->lvl, n * sizeof(*l));

		if (!l)
			return -ENOMEM;
		du->lvl = l;
		du->nlvl = n;
	}
	for (i = du->prev_level + 1; i <= level; i++)
		du->lvl[i] = (struct level){ 0 };
	return 0;
}

bool
xbulk_du_fold(const struct xbulk_du_opts *o, const struct xfs_bulkstat *bs,
	      uint64_t *value)
{
	if (S_ISDIR(bs->bs_mode) || o->exclude || o->hash_all)
		return false;
	*value = xbulk_du_bytes(bs, o->blocklog, o->apparent);
	return true;
}

/*
 * The entries of directory @e the names folded (xbulk_du_fold()): the
 * first of its level's sums, before any entry of it comes.
 */
static int
add_folded(struct xbulk_du *du, const struct xbulk_entry *e)
{
	size_t level = e->depth + 1;
	struct xbulk_du_sum f;
	int err;

	if (!du->o.names)
		return 0;
	f.inodes = xbulk_names_folded(du->o.names, e, &f.bytes);
	if (!f.inodes)
		return 0;
	err = enter_level(du, level);
	if (err)
		return err;
	du->prev_level = level;
	add(&du->lvl[level].ent, &f);
	add(&du->total, &f);
	return 0;
}

/* Count @e (a non-directory, or a directory after its contents). */
static int
charge(struct xbulk_du *du, const struct xbulk_entry *e, bool dir)
{
	struct xbulk_du_sum self = {
		.bytes = xbulk_du_bytes(e->bs, du->o.blocklog,
					du->o.apparent),
		.inodes = 1,
	};
	struct xbulk_du_sum print = self;
	size_t level = e->depth;
	int err;

	if (level > du->prev_level) {
		err = enter_level(du, level);
		if (err)
			return err;
	} else if (level < du->prev_level) {
		/* Only a directory's own visit climbs, one level. */
		const struct level *below = &du->lvl[level + 1];

		add(&print, &below->ent);
		if (!du->o.separate_dirs)
			add(&print, &below->subdir);
		add(&du->lvl[level].subdir, &below->ent);
		add(&du->lvl[level].subdir, &below->subdir);
	}
	du->prev_level = level;
	if (!(du->o.separate_dirs && dir))
		add(&du->lvl[level].ent, &self);
	add(&du->total, &self);
	return du->o.fn(du->o.arg, e, &print);
}

int
xbulk_du_visit(void *arg, const struct xbulk_entry *e,
	       enum xbulk_visit visit)
{
	struct xbulk_du *du = arg;
	bool dir = S_ISDIR(e->bs->bs_mode);
	int ret;

	if (visit == XBULK_VISIT_POST) {
		if (du->pruned) {
			du->pruned = false;
			return 0;
		}
		return charge(du, e, true);
	}
	if (!e->depth)
		du->prev_level = 0;
	/* du cannot stat it either: not counted, and (even a directory)
	 * no POST visit follows to be ignored. */
	if (e->flags & XBULK_ENTRY_BAD_INODE)
		return 0;
	ret = counts(du, e);
	if (ret < 0)
		return ret;
	if (!ret) {
		du->pruned = dir;
		return dir ? XBULK_WALK_PRUNE : 0;
	}
	return dir ? add_folded(du, e) : charge(du, e, false);
}

/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to lib/find (prefix xf_: CONTRIBUTING.md).
 *
 * What each primary does to a file (@eval) and, where the bulkstat
 * record alone can tell, to a bare record (@pre), as args.c's table
 * names them.  Defined in evaluators.c; the walk over the tree that
 * calls them is eval.c.
 */
#ifndef XBULK_FIND_EVALUATORS_H
#define XBULK_FIND_EVALUATORS_H

#include "find.h"

/* One evaluation: the file as the tests see it, and what it asked of
 * the walk. */
struct xf_state {
	const struct xbulk_entry *file;
	bool	have_stat;	/* file->bs is find's stat() of it */
	bool	prune;
	bool	quit;
};

/* @pre on the record of the file: for the tests the record decides. */
bool xf_eval_record(struct xbulk_find *f, const struct xf_node *n,
		    struct xf_state *st);

/* Tests */
int xf_pre_true(const struct xbulk_find *f, const struct xf_node *n,
		const struct xfs_bulkstat *bs);
int xf_pre_false(const struct xbulk_find *f, const struct xf_node *n,
		 const struct xfs_bulkstat *bs);
bool xf_eval_name(struct xbulk_find *f, const struct xf_node *n,
		  struct xf_state *st);
bool xf_eval_path(struct xbulk_find *f, const struct xf_node *n,
		  struct xf_state *st);
int xf_pre_lname(const struct xbulk_find *f, const struct xf_node *n,
		 const struct xfs_bulkstat *bs);
bool xf_eval_lname(struct xbulk_find *f, const struct xf_node *n,
		   struct xf_state *st);
bool xf_eval_regex(struct xbulk_find *f, const struct xf_node *n,
		   struct xf_state *st);
int xf_pre_type(const struct xbulk_find *f, const struct xf_node *n,
		const struct xfs_bulkstat *bs);
bool xf_eval_type(struct xbulk_find *f, const struct xf_node *n,
		  struct xf_state *st);
int xf_pre_xtype(const struct xbulk_find *f, const struct xf_node *n,
		 const struct xfs_bulkstat *bs);
bool xf_eval_xtype(struct xbulk_find *f, const struct xf_node *n,
		   struct xf_state *st);
int xf_pre_size(const struct xbulk_find *f, const struct xf_node *n,
		const struct xfs_bulkstat *bs);
int xf_pre_empty(const struct xbulk_find *f, const struct xf_node *n,
		 const struct xfs_bulkstat *bs);
bool xf_eval_empty(struct xbulk_find *f, const struct xf_node *n,
		   struct xf_state *st);
int xf_pre_time(const struct xbulk_find *f, const struct xf_node *n,
		const struct xfs_bulkstat *bs);
int xf_pre_num(const struct xbulk_find *f, const struct xf_node *n,
	       const struct xfs_bulkstat *bs);
bool xf_eval_inum(struct xbulk_find *f, const struct xf_node *n,
		  struct xf_state *st);
bool xf_eval_nouser(struct xbulk_find *f, const struct xf_node *n,
		    struct xf_state *st);
bool xf_eval_nogroup(struct xbulk_find *f, const struct xf_node *n,
		     struct xf_state *st);
int xf_pre_perm(const struct xbulk_find *f, const struct xf_node *n,
		const struct xfs_bulkstat *bs);
int xf_pre_samefile(const struct xbulk_find *f, const struct xf_node *n,
		    const struct xfs_bulkstat *bs);
bool xf_eval_samefile(struct xbulk_find *f, const struct xf_node *n,
		      struct xf_state *st);
bool xf_eval_fstype(struct xbulk_find *f, const struct xf_node *n,
		    struct xf_state *st);
bool xf_eval_access(struct xbulk_find *f, const struct xf_node *n,
		    struct xf_state *st);
int xf_pre_xflag(const struct xbulk_find *f, const struct xf_node *n,
		 const struct xfs_bulkstat *bs);

/* Actions */
bool xf_eval_print(struct xbulk_find *f, const struct xf_node *n,
		   struct xf_state *st);
bool xf_eval_printf(struct xbulk_find *f, const struct xf_node *n,
		    struct xf_state *st);
bool xf_eval_ls(struct xbulk_find *f, const struct xf_node *n,
		struct xf_state *st);
bool xf_eval_prune(struct xbulk_find *f, const struct xf_node *n,
		   struct xf_state *st);
bool xf_eval_quit(struct xbulk_find *f, const struct xf_node *n,
		  struct xf_state *st);
bool xf_eval_exec(struct xbulk_find *f, const struct xf_node *n,
		  struct xf_state *st);
bool xf_eval_delete(struct xbulk_find *f, const struct xf_node *n,
		    struct xf_state *st);

#endif /* XBULK_FIND_EVALUATORS_H */

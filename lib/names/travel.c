// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading every directory, top-down: the root by handle, every other
 * directory by name from its parent, after the scan has found them all.
 *
 * Why not each directory by handle, in inode order, as the scan finds
 * them?  open_by_handle_at() of a directory whose dentry is not cached
 * makes the kernel reconnect it to the tree (fs/exportfs/expfs.c,
 * reconnect_path()): it looks up ".." and then searches the parent for
 * the name (get_name(): dentry_open() without O_NOATIME, iterate_dir()).
 * That changes the parent's atime, and costs a scan of the parent per
 * subdirectory: 7.6 s instead of find's 0.4 s for one directory of
 * 20,000 subdirectories.  A directory opened by name from its parent's
 * fd is connected by the lookup itself: no search, no atime.  Handles are
 * used only to open the root and to open again a directory already read
 * (its dentry is connected then), when its fd is no longer at hand.
 *
 * Work is a stack of (directory, parent, entry) shared by the readers.
 * A reader reads a directory, links its listing (tree.c's first step,
 * done here in parallel), claims its subdirectories (each once, so a
 * directory listed twice is read once and a loop of directories is never
 * followed) and opens them at once: XFS starts reading a directory's
 * first block when it is opened (xfs_dir_open()), so their blocks come
 * in while it reads the first, which it keeps for itself; it pushes the
 * others with their fds.  Past OPEN_BUDGET such open fds, subdirectories
 * are pushed unopened and share their parent's fd, which stays open
 * until the last of them is opened; past SHARED_BUDGET of those too, the
 * parent is opened again by handle.  Under a low RLIMIT_NOFILE both
 * budgets shrink to what is left once each reader has the two fds it
 * may hold at once (its directory's, and a parent opened by handle to
 * reach it), and fewer readers run if even that does not fit: the same
 * listings, read with fewer directories open ahead.  openat2(RESOLVE_NO_XDEV) does not
 * cross into other filesystems mounted inside: the directory a mount
 * covers is not read.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tree.h"

/* How long an idle reader waits before it looks at the cancel flag. */
#define WAIT_MS		10
/* Subdirectories opened ahead of their reading, and parents kept open
 * for the others: together half of Linux's default limit of 1024 fds. */
#define OPEN_BUDGET	256
#define SHARED_BUDGET	256
/* fds a reader may hold itself, and those kept for the rest of the
 * build and the walk (a mount's directory, a symlink by handle) */
#define READER_FDS	2
#define SPARE_FDS	2

/* A parent's fd, shared by the items of its subdirectories. */
struct pfd {
	int		fd;
	uint32_t	refs;		/* items that still need it (atomic) */
};

struct item {
	uint32_t	c;		/* the directory to read */
	uint32_t	p;		/* its parent, XBN_NONE for the root */
	uint64_t	off;		/* its entry in the parent's listing */
	int		fd;		/* opened already, or -1 */
	struct pfd	*pf;		/* else the parent's fd, or NULL */
};

struct travel {
	struct xbulk_names	*nm;
	pthread_mutex_t		lock;		/* all below */
	pthread_cond_t		cond;
	struct item		*v;		/* the stack */
	size_t			n;
	size_t			cap;
	unsigned int		active;		/* readers holding an item */
	int			err;		/* first failure: stops all */
	uint32_t		shared;		/* open pfds (atomic) */
	uint32_t		opened;		/* items' fds (atomic) */
	uint32_t		open_budget;	/* OPEN_BUDGET or less */
	uint32_t		shared_budget;	/* SHARED_BUDGET or less */
	bool			descend;	/* link and claim what is read */
};

/* One reader's state. */
struct worker {
	struct travel		*t;
	struct xbn_reader	r;
	struct xbn_links	links;		/* of the listings it read */
	struct item		*kids;		/* subdirectories found */
	size_t			nkids;
	size_t			kids_cap;
};

/* The item's fd is no longer the item's. */
static int
take_fd(struct travel *t, struct item *it)
{
	int fd = it->fd;

	if (fd >= 0)
		__atomic_sub_fetch(&t->opened, 1, __ATOMIC_RELAXED);
	it->fd = -1;
	return fd;
}

/* The item no longer needs its fds. */
static void
release(struct travel *t, struct item *it)
{
	struct pfd *pf = it->pf;
	int fd = take_fd(t, it);

	if (fd >= 0)
		close(fd);
	it->pf = NULL;
	if (!pf || __atomic_sub_fetch(&pf->refs, 1, __ATOMIC_ACQ_REL))
		return;
	close(pf->fd);
	free(pf);
	__atomic_sub_fetch(&t->shared, 1, __ATOMIC_RELAXED);
}

/* Drop the subdirectories found (the walk is over: an error). */
static void
drop_kids(struct worker *w)
{
	while (w->nkids)
		release(w->t, &w->kids[--w->nkids]);
}

static bool
pop(struct travel *t, struct item *it)
{
	bool got = false;

	pthread_mutex_lock(&t->lock);
	while (!t->err && !xbl_cancelled(t->nm->cancel)) {
		struct timespec ts;

		if (t->n) {
			*it = t->v[--t->n];
			t->active++;
			got = true;
			break;
		}
		if (!t->active)
			break;		/* nothing left, nothing coming */
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += WAIT_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&t->cond, &t->lock, &ts);
	}
	if (!got)
		pthread_cond_broadcast(&t->cond);	/* the others too */
	pthread_mutex_unlock(&t->lock);
	return got;
}

/*
 * After an item: keep the first subdirectory found for this reader (its
 * parent's fd is at hand) in *@it and push the others, last first, so
 * that they come in listing order.  Return false when there is none to
 * keep: the item is given back.  Waiters are woken only for what they
 * can take, and all of them at the end.
 */
static bool
next(struct worker *w, int err, struct item *it)
{
	struct travel *t = w->t;
	bool keep = !err && w->nkids && !xbl_cancelled(t->nm->cancel);
	size_t push = w->nkids - keep;

	if (keep)
		*it = w->kids[0];
	if (keep && !push) {
		w->nkids = 0;
		return true;
	}
	pthread_mutex_lock(&t->lock);
	if (!err && push)
		err = xbl_grow((void **)&t->v, &t->cap, t->n + push,
			       sizeof(*t->v));
	if (!err) {
		while (w->nkids > keep)
			t->v[t->n++] = w->kids[--w->nkids];
	}
	if (err && !t->err)
		t->err = err;
	if (err) {
		if (keep)
			release(t, it);
		drop_kids(w);
	}
	if (!keep)
		t->active--;
	if (push == 1)
		pthread_cond_signal(&t->cond);
	else if (push || !t->active || err)
		pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	w->nkids = 0;
	return keep && !err;
}

/* Claim the subdirectories of directory @c for reading. */
static int
claim_kids(struct worker *w, uint32_t c)
{
	struct xbulk_names *nm = w->t->nm;
	const struct xbn_dir *d = xbn_dir(&nm->dirs, c);
	const uint8_t *e, *end = d->list + d->listlen;

	for (e = d->list; e && e < end; e = xbn_ent_next(e)) {
		unsigned int dt = xbn_ent_dtype(e);
		const struct xbn_slot *slot;
		struct xbn_dir *kd;

		xbn_spill_tick(&nm->spill, 1);
		if (dt != DT_DIR && dt != DT_UNKNOWN)
			continue;
		slot = xbn_lookup(&nm->store, xbn_ent_ino(e));
		if (!slot || !S_ISDIR(slot->mode))
			continue;	/* made after the scan saw its chunk */
		kd = xbn_dir(&nm->dirs, slot->aux);
		if (__atomic_exchange_n(&kd->claimed, 1, __ATOMIC_ACQ_REL))
			continue;
		if (xbl_grow((void **)&w->kids, &w->kids_cap, w->nkids + 1,
			     sizeof(*w->kids)))
			return -ENOMEM;
		w->kids[w->nkids++] = (struct item){
			.c = slot->aux, .p = c, .off = (uint64_t)(e - d->list),
			.fd = -1,
		};
	}
	return 0;
}

/* openat2() that stays on this mount and follows no symlink; openat()
 * before Linux 5.6 (the "." check catches a mount crossed then). */
static int
open_name(int pfd, const char *name)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOATIME | O_NOFOLLOW |
			 O_CLOEXEC,
		.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	fd = syscall(SYS_openat2, pfd, name, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)
		fd = openat(pfd, name, (int)how.flags);
	return fd < 0 ? -errno : (int)fd;
}

/* Open the directory of @it: by name from its parent's fd. */
static int
open_item(struct worker *w, struct item *it)
{
	struct xbulk_names *nm = w->t->nm;
	const struct xbn_dir *d = xbn_dir(&nm->dirs, it->c);
	char name[256];
	int pfd, fd;

	if (it->p == XBN_NONE)
		return xbn_open_dir(nm->mfd, d->ino, d->gen);
	if (it->fd >= 0)
		return take_fd(w->t, it);
	if (it->pf) {
		xbn_ent_cname(xbn_dir(&nm->dirs, it->p)->list + it->off, name);
		fd = open_name(it->pf->fd, name);
		release(w->t, it);
		return fd;
	}
	/* Read already, so connected: no reconnection search. */
	pfd = xbn_open_parent(nm, it->p, it->off, name);
	if (pfd < 0)
		return pfd;
	fd = open_name(pfd, name);
	close(pfd);
	return fd;
}

/* Open the subdirectories just claimed from @fd, their parent's, while
 * the budget lets; the others share @fd (or it is closed). */
static void
open_kids(struct worker *w, int fd)
{
	struct travel *t = w->t;
	const struct xbn_dir *d = xbn_dir(&t->nm->dirs, w->kids[0].p);
	struct pfd *pf = NULL;
	uint32_t later = 0;
	char name[256];
	size_t i;

	for (i = 0; i < w->nkids; i++) {
		struct item *k = &w->kids[i];

		if (__atomic_add_fetch(&t->opened, 1, __ATOMIC_RELAXED) <=
		    t->open_budget) {
			xbn_ent_cname(d->list + k->off, name);
			k->fd = open_name(fd, name);
			if (k->fd >= 0)
				continue;
			/* Opened again later: the error (or not) then */
			k->fd = -1;
		}
		__atomic_sub_fetch(&t->opened, 1, __ATOMIC_RELAXED);
		later++;
	}
	if (later) {
		if (__atomic_add_fetch(&t->shared, 1, __ATOMIC_RELAXED) <=
		    t->shared_budget)
			pf = malloc(sizeof(*pf));
		if (!pf)
			__atomic_sub_fetch(&t->shared, 1, __ATOMIC_RELAXED);
	}
	if (!pf) {
		close(fd);
		return;
	}
	pf->fd = fd;
	pf->refs = later;
	for (i = 0; i < w->nkids; i++) {
		if (w->kids[i].fd < 0)
			w->kids[i].pf = pf;
	}
}

/* Errors that say the name no longer leads to the directory. */
static bool
gone(int err)
{
	return err == -ENOENT || err == -ENOTDIR || err == -ELOOP ||
	       err == -ESTALE;
}

/* Read the directory of @it and claim its subdirectories. */
static int
read_item(struct worker *w, struct item *it)
{
	struct xbn_dir *d = xbn_dir(&w->t->nm->dirs, it->c);
	int fd, err;

	fd = open_item(w, it);
	if (fd == -EXDEV)
		return 0;	/* a mount covers it: not ours to read */
	if (fd >= 0) {
		err = xbn_read_fd(&w->r, fd, d);
	} else if (gone(fd)) {
		err = fd;
	} else {
		d->flags |= XBN_DIR_UNREADABLE;
		d->err = fd;
		err = 0;
	}
	if (gone(err)) {
		/* Removed or moved since its parent was read: let another
		 * listing of it claim it again. */
		d->flags |= XBN_DIR_GONE;
		__atomic_store_n(&d->claimed, 0, __ATOMIC_RELEASE);
		err = 0;
	} else if (!err) {
		XBL_PROGRESS_ADD(w->t->nm->progress, dirs_read, 1);
		XBL_PROGRESS_ADD(w->t->nm->progress, entries, d->nentries);
		d->flags &= (uint16_t)~XBN_DIR_GONE;
		/* else the caller links, once the entries' records are in */
		if (w->t->descend)
			err = xbn_link_listing(w->t->nm, it->c, &w->links);
		if (w->t->descend && !err)
			err = claim_kids(w, it->c);
	}
	if (fd >= 0 && !err && w->nkids)
		open_kids(w, fd);
	else if (fd >= 0)
		close(fd);
	return err;
}

static void *
reader(void *arg)
{
	struct worker *w = arg;
	struct item it;

	while (pop(w->t, &it)) {
		while (next(w, read_item(w, &it), &it))
			;
	}
	return NULL;
}

/* Add a reader's links to @links, and free them. */
static int
keep_links(struct xbn_links *links, struct xbn_links *w)
{
	int ret = 0;

	links->stale += w->stale;
	if (w->n) {
		ret = xbl_grow((void **)&links->v, &links->cap,
			       links->n + w->n, sizeof(*links->v));
		if (!ret) {
			memcpy(links->v + links->n, w->v, w->n * sizeof(*w->v));
			links->n += w->n;
		}
	}
	free(w->v);
	memset(w, 0, sizeof(*w));
	return ret;
}

/* Hand a reader's listing blocks over to the names. */
static void
keep_blocks(struct xbulk_names *nm, struct xbn_reader *r)
{
	struct xbn_lblock *last = r->blocks;

	if (!last)
		return;
	while (last->next)
		last = last->next;
	last->next = nm->lists;
	nm->lists = r->blocks;
	nm->list_bytes += r->bytes;
	r->blocks = NULL;
}

/* Readers and budgets that fit the fds this process may still open. */
static unsigned int
fit_fds(struct travel *t, unsigned int threads)
{
	unsigned int free = xbn_fds_free(), left;

	free = free > SPARE_FDS ? free - SPARE_FDS : 0;
	if (threads > free / READER_FDS)
		threads = free / READER_FDS;
	if (threads < 1)
		threads = 1;
	left = free > threads * READER_FDS ? free - threads * READER_FDS : 0;
	t->open_budget = left / 2 < OPEN_BUDGET ? left / 2 : OPEN_BUDGET;
	left -= t->open_budget;
	t->shared_budget = left < SHARED_BUDGET ? left : SHARED_BUDGET;
	return threads;
}

int
xbn_travel(struct xbulk_names *nm, unsigned int threads,
	   struct xbn_links *links, const struct xbn_edge *dirs, size_t ndirs)
{
	struct travel t = { .nm = nm, .descend = !dirs };
	struct worker *w;
	pthread_t *tids;
	unsigned int i, ninit = 0, started = 1;
	size_t k;
	int ret = 0;

	threads = fit_fds(&t, threads);
	w = calloc(threads, sizeof(*w));
	tids = calloc(threads, sizeof(*tids));
	if (!w || !tids ||
	    xbl_grow((void **)&t.v, &t.cap, dirs ? ndirs : 1, sizeof(*t.v))) {
		ret = -ENOMEM;
		goto out;
	}
	if (!dirs) {
		xbn_dir(&nm->dirs, nm->root)->claimed = 1;
		t.v[t.n++] = (struct item){ .c = nm->root, .p = XBN_NONE,
					    .fd = -1 };
	}
	for (k = ndirs; dirs && k--;)	/* popped in their order */
		t.v[t.n++] = (struct item){ .c = dirs[k].c, .p = dirs[k].p,
					    .off = dirs[k].off, .fd = -1 };
	pthread_mutex_init(&t.lock, NULL);
	pthread_cond_init(&t.cond, NULL);
	for (ninit = 0; ninit < threads; ninit++) {
		w[ninit].t = &t;
		if (xbn_reader_init(&w[ninit].r, &nm->spill, nm->cancel)) {
			ret = -ENOMEM;
			break;
		}
		if (nm->fold.fn && t.descend)
			w[ninit].r.fold = &nm->fold;
	}
	/* the calling thread is reader 0 */
	for (started = 1; !ret && started < threads; started++) {
		if (pthread_create(&tids[started], NULL, reader, &w[started]))
			break;
	}
	if (!ret)
		reader(&w[0]);
	for (i = 1; i < started; i++)
		pthread_join(tids[i], NULL);
	while (t.n)	/* left by an error or a cancel */
		release(&t, &t.v[--t.n]);
	for (i = 0; i < ninit; i++) {
		keep_blocks(nm, &w[i].r);
		xbn_reader_fini(&w[i].r);
		free(w[i].kids);
		if (keep_links(links, &w[i].links) && !ret)
			ret = -ENOMEM;
	}
	if (!ret)
		ret = t.err;
	if (!ret && xbl_cancelled(nm->cancel))
		ret = -EINTR;
	pthread_cond_destroy(&t.cond);
	pthread_mutex_destroy(&t.lock);
out:
	free(t.v);
	free(tids);
	free(w);
	return ret;
}

// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Our mount and the mounts inside it, from /proc/self/mountinfo
 * (Documentation/filesystems/proc.rst: "mount ID, parent ID, major:minor,
 * root, mount point, options, ..."; spaces, tabs, newlines and
 * backslashes in paths are written as \ooo octal escapes).
 *
 * Walks show a mount point inside the mount as find -xdev does: the
 * entry's attributes are those of what is mounted there (statx of the
 * name through the directory holding it), and the walk does not go in.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tree.h"

void
xbn_unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/* The next space-separated field of *@s, NUL-terminated in place. */
static char *
field(char **s)
{
	char *f = *s, *end;

	if (!f || !*f)
		return NULL;
	end = strchr(f, ' ');
	if (end) {
		*end = '\0';
		*s = end + 1;
	} else {
		*s = f + strlen(f);
	}
	return f;
}

int
xbn_mountinfo_line(char *line, uint64_t *id, uint64_t *parent, char **root,
		   char **mountpoint)
{
	char *s = line, *f[5], *end;
	int i;

	line[strcspn(line, "\n")] = '\0';
	for (i = 0; i < 5; i++) {
		f[i] = field(&s);
		if (!f[i])
			return -EINVAL;
	}
	*id = strtoull(f[0], &end, 10);
	if (*end)
		return -EINVAL;
	*parent = strtoull(f[1], &end, 10);
	if (*end || f[3][0] != '/' || f[4][0] != '/')
		return -EINVAL;
	xbn_unescape(f[3]);
	xbn_unescape(f[4]);
	*root = f[3];
	*mountpoint = f[4];
	return 0;
}

const char *
xbn_path_below(const char *mp, const char *child)
{
	size_t len = strlen(mp);

	if (len && mp[len - 1] == '/')
		len--;
	if (strncmp(child, mp, len) || child[len] != '/' || !child[len + 1])
		return NULL;
	return child + len + 1;
}

void
xbn_mountinfo_free(struct xbn_mountinfo *mi)
{
	size_t i;

	for (i = 0; i < mi->ninside; i++)
		free(mi->inside[i]);
	free(mi->inside);
	free(mi->mountpoint);
	free(mi->root);
	memset(mi, 0, sizeof(*mi));
}

bool
xbn_mounts_on_dirs(const struct xbn_mountinfo *mi)
{
	size_t i;

	for (i = 0; i < mi->ninside; i++) {
		char *p = NULL;
		struct stat st;
		bool dir;

		if (asprintf(&p, "%s/%s", mi->mountpoint, mi->inside[i]) < 0)
			return false;
		dir = !stat(p, &st) && S_ISDIR(st.st_mode);
		free(p);
		if (!dir)
			return false;
	}
	return true;
}

static int
add_inside(struct xbn_mountinfo *mi, const char *mp)
{
	char **v = realloc(mi->inside, (mi->ninside + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	mi->inside = v;
	v[mi->ninside] = strdup(mp);
	if (!v[mi->ninside])
		return -ENOMEM;
	mi->ninside++;
	return 0;
}

/* Keep the mount points below ours, relative to it. */
static int
relative_inside(struct xbn_mountinfo *mi)
{
	size_t i, k = 0;

	for (i = 0; i < mi->ninside; i++) {
		const char *rel = xbn_path_below(mi->mountpoint, mi->inside[i]);

		if (rel) {
			memmove(mi->inside[i], rel, strlen(rel) + 1);
			mi->inside[k++] = mi->inside[i];
		} else {
			free(mi->inside[i]);
		}
	}
	mi->ninside = k;
	return 0;
}

int
xbn_mountinfo_read(struct xbn_mountinfo *mi, uint64_t mnt_id)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *root, *mp;
	size_t cap = 0;
	int ret = 0;

	memset(mi, 0, sizeof(*mi));
	mi->mnt_id = mnt_id;
	if (!f)
		return -errno;
	while (!ret && getline(&line, &cap, f) > 0) {
		uint64_t id, parent;

		if (xbn_mountinfo_line(line, &id, &parent, &root, &mp))
			continue;
		if (id == mnt_id) {
			mi->root = strdup(root);
			mi->mountpoint = strdup(mp);
			if (!mi->root || !mi->mountpoint)
				ret = -ENOMEM;
		} else if (parent == mnt_id) {
			ret = add_inside(mi, mp);
		}
	}
	free(line);
	fclose(f);
	if (!ret && !mi->mountpoint)
		ret = -ENOENT;
	if (!ret)
		ret = relative_inside(mi);
	if (ret)
		xbn_mountinfo_free(mi);
	return ret;
}

/* statx of the mount on entry @off of directory @p, through its handle. */
static int
stat_mount(const struct xbulk_names *nm, uint32_t p, uint64_t off,
	   struct statx *stx)
{
	char name[256];
	int fd, ret;

	fd = xbn_open_parent(nm, p, off, name);
	if (fd < 0)
		return fd;
	ret = statx(fd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
		    STATX_BASIC_STATS | STATX_BTIME | STATX_MNT_ID, stx);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

/* The type of mount @mnt_id, as /proc/self/mountinfo names it after
 * " - " ("ext4", "tmpfs"), into @buf; "unknown" if it is not there. */
void
xbn_mount_fstype(uint64_t mnt_id, char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, *sep, *type;
	size_t cap = 0;

	snprintf(buf, size, "unknown");
	while (f && getline(&line, &cap, f) > 0) {
		if (strtoull(line, NULL, 10) != mnt_id)
			continue;
		sep = strstr(line, " - ");
		if (sep) {
			type = sep + 3;
			type[strcspn(type, " \n")] = '\0';
			snprintf(buf, size, "%s", type);
		}
		break;
	}
	free(line);
	if (f)
		fclose(f);
}

/* Entries but "." and ".." of the directory mounted on entry @off of
 * @p, as find's -empty counts them (O_NOATIME: its atime stays). */
static int
count_mounted(const struct xbulk_names *nm, uint32_t p, uint64_t off,
	      uint64_t *n)
{
	struct dirent *d;
	char name[256];
	DIR *dir;
	int pfd, fd;

	pfd = xbn_open_parent(nm, p, off, name);
	if (pfd < 0)
		return pfd;
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			       O_NOATIME | O_CLOEXEC);
	if (fd < 0)
		fd = -errno;
	close(pfd);
	if (fd < 0)
		return fd;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -ENOMEM;
	}
	*n = 0;
	errno = 0;
	while ((d = readdir(dir)))
		*n += strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
	closedir(dir);
	return 0;
}

/* Mark the covered inode's entry; it is the mount's from now on. */
static void
mark_mount(struct xbulk_names *nm, struct xbn_mount *m, uint32_t k)
{
	struct xbn_slot *slot = xbn_lookup(&nm->store, m->ino);
	struct xbn_dir *d;

	if (!slot)
		return;
	d = xbn_slot_dir(nm, slot);
	if (d && xbn_is_edge(d, m->parent, m->entry_off)) {
		d->flags |= XBN_DIR_MOUNT;
		d->mount = k;
	} else {
		slot->flags |= XBN_SLOT_MOUNT;
	}
}

int
xbn_mounts_resolve(struct xbulk_names *nm, struct xbn_mountinfo *mi)
{
	size_t i;

	nm->mounts = calloc(mi->ninside ? mi->ninside : 1, sizeof(*nm->mounts));
	if (!nm->mounts)
		return -ENOMEM;
	for (i = 0; i < mi->ninside; i++) {
		struct xbn_mount *m = &nm->mounts[nm->nmounts];
		struct statx stx;

		if (xbn_resolve(nm, nm->top, mi->inside[i], &m->parent,
				&m->entry_off))
			continue;	/* renamed since, or hidden */
		if (stat_mount(nm, m->parent, m->entry_off, &stx) ||
		    ((stx.stx_mask & STATX_MNT_ID) &&
		     stx.stx_mnt_id == nm->mnt_id))
			continue;	/* nothing mounted there after all */
		m->ino = xbn_ent_ino(xbn_dir(&nm->dirs, m->parent)->list +
				     m->entry_off);
		xbulk_bulkstat_from_statx(&m->bs, &stx);
		m->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
		xbn_mount_fstype(stx.stx_mnt_id, m->fstype, sizeof(m->fstype));
		if (S_ISDIR(stx.stx_mode)) {
			m->err = count_mounted(nm, m->parent, m->entry_off,
					       &m->nentries);
			if (m->err)
				m->nentries = 1;
		}
		m->path = mi->inside[i];
		mi->inside[i] = NULL;
		mark_mount(nm, m, (uint32_t)nm->nmounts);
		nm->nmounts++;
	}
	return 0;
}

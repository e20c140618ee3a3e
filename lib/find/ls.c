// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -ls and -fls: one line per file as GNU find 4.9 writes it (gnulib
 * listfile.c): inode, 1 KiB blocks, mode, links, owner, group, size (or
 * major, minor), date, then the name with ls -b style escapes and, for a
 * symlink, " -> " and its target.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../format/digits.h"
#include "facts.h"
#include "actions.h"
#include "find.h"

/* Append @s with find's print_name_with_quoting() escapes. */
static char *
put_quoted(char *p, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = NULL;

		switch (c) {
		case '\\': e = "\\\\"; break;
		case '\n': e = "\\n"; break;
		case '\b': e = "\\b"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		case '\f': e = "\\f"; break;
		case ' ': e = "\\ "; break;
		case '"': e = "\\\""; break;
		default:
			break;
		}
		if (e) {
			memcpy(p, e, 2);
			p += 2;
		} else if (c > 040 && c < 0177) {
			*p++ = (char)c;
		} else {
			*p++ = '\\';
			*p++ = (char)('0' + (c >> 6));
			*p++ = (char)('0' + ((c >> 3) & 7));
			*p++ = (char)('0' + (c & 7));
		}
	}
	return p;
}

/* Append @s, padded with spaces to @width ("%-8s" or "%8s"). */
static char *
put_padded(char *p, const char *s, size_t len, size_t width, bool left)
{
	size_t pad = width > len ? width - len : 0;

	if (!left) {
		memset(p, ' ', pad);
		p += pad;
	}
	memcpy(p, s, len);
	p += len;
	if (left) {
		memset(p, ' ', pad);
		p += pad;
	}
	return p;
}

/* @v right-aligned in *@width, which grows to fit (find's print_num). */
static char *
put_num_grow(char *p, uint64_t v, int *width)
{
	char buf[XBF_DEC_MAX];
	size_t len = (size_t)(put_dec(buf, v) - buf);

	if (len > (size_t)*width)
		*width = (int)len;
	return put_padded(p, buf, len, (size_t)*width, false);
}

/* The owner or group column: a name padded to the column's width, or
 * the number ("%-8lu " for owners, "%-*lu " for groups). */
static char *
put_owner(char *p, const char *name, uint32_t id, int *width, bool user)
{
	char buf[XBF_DEC_MAX];
	size_t len;

	if (name) {
		len = strlen(name);
		if (len > (size_t)*width)
			*width = (int)len;
		p = put_padded(p, name, len, (size_t)*width, true);
		*p++ = ' ';
		return p;
	}
	len = (size_t)(put_dec(buf, id) - buf);
	p = put_padded(p, buf, len, user ? 8 : (size_t)*width, true);
	*p++ = ' ';
	len = len > (user ? 8u : (size_t)*width) ? len :
	      (user ? 8u : (size_t)*width);
	if (user)
		len++;		/* find counts the space for owners */
	if (len > (size_t)*width)
		*width = (int)len;
	return p;
}

/* Append one escaped string of up to @len bytes, through a buffer. */
static int
put_name(struct xf_stream *out, const char *s, size_t len)
{
	char buf[4 * 256];
	size_t i, n;
	int err = 0;

	for (i = 0; i < len && !err; i += n) {
		n = len - i < 256 ? len - i : 256;
		err = xf_put(out, buf, (size_t)(put_quoted(buf, s + i, n) -
						buf));
	}
	return err;
}

int
xf_ls(struct xbulk_find *f, struct xf_stream *out,
      const struct xbulk_entry *file)
{
	const struct xfs_bulkstat *bs = file->bs;
	struct xf_ls_widths *w = &f->ls;
	char line[512], *p = line, num[XBF_DEC_MAX];
	const char *target = NULL;
	int err;

	p = put_num_grow(p, bs->bs_ino, &w->ino);
	*p++ = ' ';
	p = put_num_grow(p, (xf_blocks512(f, file) + 1) / 2, &w->blocks);
	*p++ = ' ';
	xf_mode_string(bs->bs_mode, p);
	p += 10;
	*p++ = ' ';
	p = put_padded(p, num, (size_t)(put_dec(num, bs->bs_nlink) - num), 3,
		       false);
	*p++ = ' ';
	p = put_owner(p, xf_user_name(f, bs->bs_uid), bs->bs_uid, &w->owner,
		      true);
	p = put_owner(p, xf_group_name(f, bs->bs_gid), bs->bs_gid,
		      &w->group, false);
	if (S_ISCHR(bs->bs_mode) || S_ISBLK(bs->bs_mode)) {
		p = put_num_grow(p, xf_rdev_major(bs->bs_rdev), &w->major);
		p = PUT(p, ", ");
		p = put_num_grow(p, xf_rdev_minor(bs->bs_rdev), &w->minor);
	} else {
		p = put_num_grow(p, bs->bs_size, &w->size);
	}
	*p++ = ' ';
	p += xf_ls_date(p, bs->bs_mtime, f->now.tv_sec);
	*p++ = ' ';
	err = xf_put(out, line, (size_t)(p - line));
	if (!err)
		err = put_name(out, file->path, file->pathlen);
	if (S_ISLNK(bs->bs_mode))
		target = xf_readlink(f, file);
	if (!err && target) {
		err = xf_put(out, " -> ", 4);
		if (!err)
			err = put_name(out, target, strlen(target));
	}
	return err ? err : xf_put(out, "\n", 1);
}

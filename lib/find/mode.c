// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -perm's MODE as GNU find reads it (gnulib's mode_compile() and
 * mode_adjust() from a mode of 0 with a umask of 0): octal, or symbolic
 * clauses like u=rwx,g+s,o-w, with X giving different bits to files and
 * directories.  And ls -l's mode string for %M and -ls.
 */
#include <errno.h>
#include <sys/stat.h>

#include "facts.h"
#include "find.h"

#define ALLM		07777u
#define RWXUGO		0777u

/* One clause's change, as gnulib's struct mode_change. */
struct change {
	char		op;		/* '=' '+' '-' */
	char		flag;		/* 'o' ordinary, 'c' copy, 'X' */
	uint32_t	affected, value, mentioned;
};

/* Apply @c to @mode (gnulib mode_adjust() with a umask of 0). */
static uint32_t
adjust(uint32_t mode, bool dir, const struct change *c)
{
	uint32_t omit = (dir ? S_ISUID | S_ISGID : 0) & ~c->mentioned;
	uint32_t value = c->value, preserved;

	if (c->flag == 'c') {
		value &= mode;
		value |= (value & 0444 ? 0444 : 0) | (value & 0222 ? 0222 : 0) |
			 (value & 0111 ? 0111 : 0);
	} else if (c->flag == 'X' && ((mode & 0111) || dir)) {
		value |= 0111;
	}
	value &= (c->affected ? c->affected : ~0u) & ~omit;
	switch (c->op) {
	case '=':
		preserved = (c->affected ? ~c->affected : 0) | omit;
		return (mode & preserved) | value;
	case '+':
		return mode | value;
	default:
		return mode & ~value;
	}
}

/* An octal MODE: '=' of all the bits it mentions. */
static int
octal(const char *s, uint32_t *file_mode, uint32_t *dir_mode)
{
	const char *p = s;
	struct change c = { '=', 'o', ALLM, 0, 0 };

	do {
		c.value = 8 * c.value + (uint32_t)(*p++ - '0');
		if (c.value > ALLM)
			return -EINVAL;
	} while (*p >= '0' && *p < '8');
	if (*p)
		return -EINVAL;
	c.mentioned = p - s < 5 ? (c.value & (S_ISUID | S_ISGID)) | S_ISVTX |
				  RWXUGO : ALLM;
	*file_mode = adjust(0, false, &c);
	*dir_mode = adjust(0, true, &c);
	return 0;
}

/* The permissions of one clause after its operator ("rwx", "u", "755"). */
static int
clause_value(const char **pp, struct change *c, uint32_t *affected)
{
	const char *p = *pp;

	c->flag = 'c';
	switch (*p) {
	case '0': case '1': case '2': case '3':
	case '4': case '5': case '6': case '7':
		c->value = 0;
		do {
			c->value = 8 * c->value + (uint32_t)(*p++ - '0');
			if (c->value > ALLM)
				return -EINVAL;
		} while (*p >= '0' && *p < '8');
		if (*affected || (*p && *p != ','))
			return -EINVAL;
		*affected = c->mentioned = ALLM;
		c->flag = 'o';
		break;
	case 'u':
		c->value = S_IRWXU;
		p++;
		break;
	case 'g':
		c->value = S_IRWXG;
		p++;
		break;
	case 'o':
		c->value = S_IRWXO;
		p++;
		break;
	default:
		c->value = 0;
		c->flag = 'o';
		for (;; p++) {
			if (*p == 'r')
				c->value |= 0444;
			else if (*p == 'w')
				c->value |= 0222;
			else if (*p == 'x')
				c->value |= 0111;
			else if (*p == 'X')
				c->flag = 'X';
			else if (*p == 's')
				c->value |= S_ISUID | S_ISGID;
			else if (*p == 't')
				c->value |= S_ISVTX;
			else
				break;
		}
	}
	*pp = p;
	return 0;
}

int
xf_parse_mode(const char *s, uint32_t *file_mode, uint32_t *dir_mode)
{
	const char *p = s;
	uint32_t fm = 0, dm = 0;

	if (*s >= '0' && *s < '8')
		return octal(s, file_mode, dir_mode);
	do {
		uint32_t affected = 0;

		for (;; p++) {
			if (*p == 'u')
				affected |= S_ISUID | S_IRWXU;
			else if (*p == 'g')
				affected |= S_ISGID | S_IRWXG;
			else if (*p == 'o')
				affected |= S_ISVTX | S_IRWXO;
			else if (*p == 'a')
				affected |= ALLM;
			else if (*p == '=' || *p == '+' || *p == '-')
				break;
			else
				return -EINVAL;
		}
		do {
			struct change c = { .op = *p++ };

			c.mentioned = 0;
			if (clause_value(&p, &c, &affected))
				return -EINVAL;
			c.affected = affected;
			if (!c.mentioned)
				c.mentioned = affected ? affected & c.value :
					      c.value;
			fm = adjust(fm, false, &c);
			dm = adjust(dm, true, &c);
		} while (*p == '=' || *p == '+' || *p == '-');
	} while (*p++ == ',');
	if (*--p)
		return -EINVAL;
	*file_mode = fm;
	*dir_mode = dm;
	return 0;
}

void
xf_mode_string(uint32_t mode, char *p)
{
	static const char types[16] = {
		[S_IFREG >> 12] = '-', [S_IFDIR >> 12] = 'd',
		[S_IFLNK >> 12] = 'l', [S_IFCHR >> 12] = 'c',
		[S_IFBLK >> 12] = 'b', [S_IFIFO >> 12] = 'p',
		[S_IFSOCK >> 12] = 's',
	};
	char t = types[(mode & S_IFMT) >> 12];

	p[0] = t ? t : '?';
	p[1] = mode & S_IRUSR ? 'r' : '-';
	p[2] = mode & S_IWUSR ? 'w' : '-';
	p[3] = mode & S_ISUID ? (mode & S_IXUSR ? 's' : 'S') :
				(mode & S_IXUSR ? 'x' : '-');
	p[4] = mode & S_IRGRP ? 'r' : '-';
	p[5] = mode & S_IWGRP ? 'w' : '-';
	p[6] = mode & S_ISGID ? (mode & S_IXGRP ? 's' : 'S') :
				(mode & S_IXGRP ? 'x' : '-');
	p[7] = mode & S_IROTH ? 'r' : '-';
	p[8] = mode & S_IWOTH ? 'w' : '-';
	p[9] = mode & S_ISVTX ? (mode & S_IXOTH ? 't' : 'T') :
				(mode & S_IXOTH ? 'x' : '-');
}

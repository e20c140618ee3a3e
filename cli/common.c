// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every command shares: messages on stderr, exit statuses, process
 * set-up, opening the filesystem.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "memory.h"
#include "progress.h"

static bool stdout_closed;

/* The signal that asked the scan to stop (SIGINT, SIGTERM), or 0. */
static volatile int caught_signal;

static void __attribute__((format(printf, 2, 0)))
vmessage(const char *cmd, const char *fmt, va_list ap)
{
	/* One whole line: workers of a parallel scan report at once; not
	 * run into a progress line. */
	flockfile(stderr);
	xb_progress_clear();
	fprintf(stderr, "xbulk %s: ", cmd);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

void
xb_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(cmd, fmt, ap);
	va_end(ap);
}

void
xb_create_error(const char *cmd, const char *path, int err)
{
	if (err == -EEXIST)
		xb_error(cmd, "%s: not a regular file: left as it is", path);
	else
		xb_error(cmd, "%s: cannot create: %s", path, strerror(-err));
}

enum xb_exit
xb_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(cmd, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'xbulk %s --help'.\n", cmd);
	return XB_EXIT_USAGE;
}

enum xb_exit
xb_bad_number(const char *cmd, const char *opt, const char *arg, int err,
	      uint64_t max)
{
	if (err == -ERANGE)
		return xb_usage_error(cmd,
			"%s: '%s' is out of range (largest is %llu)",
			opt, arg, (unsigned long long)max);
	if (!*arg)
		return xb_usage_error(cmd, "%s: empty number", opt);
	if (*arg == '-' && arg[1] && !arg[1 + strspn(arg + 1, "0123456789")])
		return xb_usage_error(cmd, "%s: '%s' is negative", opt, arg);
	/* "--top -s": an option where the number should be */
	if (*arg == '-')
		return xb_usage_error(cmd, "%s needs a number, not '%s'", opt,
				      arg);
	return xb_usage_error(cmd, "%s: '%s' is not a decimal number",
			      opt, arg);
}

enum xb_exit
xb_parse_abi(const char *cmd, const char *arg, enum xbulk_abi *abi)
{
	uint64_t v;
	int err;

	err = xb_parse_u64(arg, UINT32_MAX, &v);
	if (err)
		return xb_bad_number(cmd, "-v", arg, err, UINT32_MAX);
	if (v != XBULK_ABI_V1 && v != XBULK_ABI_V5)
		return xb_usage_error(cmd, "-v: version must be 1 or 5, not %s",
				      arg);
	*abi = (enum xbulk_abi)v;
	return XB_EXIT_OK;
}

enum xb_exit
xb_process_init(void)
{
	int fd;

	if (getuid() != geteuid() || getgid() != getegid()) {
		fprintf(stderr, "xbulk: refusing to run setuid or setgid\n");
		return XB_EXIT_FAILURE;
	}
	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (fd == 1)
			stdout_closed = true;
		if (open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			return XB_EXIT_FAILURE;
	}
	signal(SIGPIPE, SIG_IGN);
	/*
	 * One write() per line on stderr, so that --interval lines and
	 * messages stay whole beside records written to the same terminal.
	 */
	setvbuf(stderr, NULL, _IOLBF, BUFSIZ);
	return XB_EXIT_OK;
}

int
xb_stdout_fd(void)
{
	return stdout_closed ? -1 : STDOUT_FILENO;
}

enum xb_exit
xb_open_fs(const char *cmd, const char *path, enum xbulk_abi abi,
	   struct xbulk_fs **fs)
{
	int err;

	*fs = NULL;
	if (!*path)
		return xb_usage_error(cmd, "PATH is empty");
	err = xbulk_fs_open(path, abi, fs);
	switch (err) {
	case 0:
		return XB_EXIT_OK;
	case -EINVAL:
		xb_error(cmd, "%s: not a regular file or directory", path);
		break;
	case -ENOTTY:
		xb_error(cmd, "%s: not on an XFS filesystem", path);
		break;
	default:
		xb_error(cmd, "%s: %s", path, strerror(-err));
		break;
	}
	return XB_EXIT_FAILURE;
}

enum xb_exit
xb_bad_option(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return xb_usage_error(cmd, "option '%s' needs a value",
				      argv[optind - 1]);
	return xb_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

enum xb_exit
xb_set_metadir(const char *cmd, struct xbulk_fs *fs, const char *path)
{
	struct xfs_bulkstat bs;
	int err;

	if (xbulk_fs_set_metadir(fs, true))
		return xb_usage_error(cmd, "-m needs the v5 ioctls; the v1 ones (-v 1) have no flags");
	/*
	 * One call before any output: a parallel scan would otherwise meet
	 * the rejection in one worker after others printed records.  Other
	 * errors are left to the command's own calls.
	 */
	err = xbulk_bulkstat_single(fs, XFS_BULK_IREQ_SPECIAL_ROOT,
				    XFS_BULK_IREQ_SPECIAL, &bs);
	if (err == -EOPNOTSUPP)
		return xb_ioctl_error(cmd, fs, path, "bulkstat", err);
	return XB_EXIT_OK;
}

enum xb_exit
xb_ioctl_error(const char *cmd, const struct xbulk_fs *fs, const char *path,
	       const char *what, int err)
{
	if (err == -EPERM)
		xb_error(cmd, "%s: %s: %s (needs CAP_SYS_ADMIN)", path, what,
			 strerror(-err));
	else if (err == -EOPNOTSUPP && fs && xbulk_fs_metadir(fs))
		xb_error(cmd, "%s: %s: the kernel rejects XFS_BULK_IREQ_METADIR (-m needs Linux 6.13 or later)",
			 path, what);
	else if (err == -EINVAL && fs && xbulk_fs_idmapped(fs))
		xb_error(cmd, "%s: %s: %s: the kernel refuses bulkstat on idmapped mounts; use the filesystem's own mount",
			 path, what, strerror(-err));
	else
		xb_error(cmd, "%s: %s: %s", path, what, strerror(-err));
	return XB_EXIT_FAILURE;
}

const char *
xb_thread_text(int err, char *buf, size_t size)
{
	size_t stack = 0;
	pthread_attr_t a;
	struct rlimit as;

	if (err != -EAGAIN) {
		snprintf(buf, size, "cannot start a thread: %s",
			 strerror(-err));
		return buf;
	}
	if (!pthread_getattr_default_np(&a)) {
		pthread_attr_getstacksize(&a, &stack);
		pthread_attr_destroy(&a);
	}
	if (!getrlimit(RLIMIT_AS, &as) && as.rlim_cur != RLIM_INFINITY)
		snprintf(buf, size, "cannot start a thread (pthread_create: "
			 "%s): no room for its %zu KiB stack (ulimit -s) "
			 "under the address space limit (ulimit -v %llu), or "
			 "a limit on threads reached (ulimit -u)",
			 strerror(-err), stack / 1024,
			 (unsigned long long)as.rlim_cur / 1024);
	else
		snprintf(buf, size, "cannot start a thread (pthread_create: "
			 "%s): no memory for its %zu KiB stack (ulimit -s), "
			 "or a limit on threads reached (ulimit -u, "
			 "/proc/sys/kernel/threads-max)", strerror(-err),
			 stack / 1024);
	return buf;
}

/*
 * About the bytes a names build of @r's slots would spill in all on @fs
 * under @budget (docs/performance.md, "The model"): each allocated
 * inode's slot (or what the store held per inode) and a name's entry (32 bytes is above the entry of a name
 * of 20 bytes and the chunk index), less the three quarters of the
 * budget held in memory, plus the 2 MiB blocks partly filled (one of the
 * store and one of the listings per thread, the cursor's).  At least one
 * block more than was placed.
 */
static uint64_t
spill_need(const struct xbulk_fs *fs, const struct xbulk_names_result *r,
	   uint64_t budget)
{
	uint64_t block = 2ULL << 20, used = 0, per = r->slot_bytes, need, least;

	least = r->spill_bytes + block;
	if (xbulk_used_inodes(fs, XBULK_ALL_AGS, &used))
		return least;
	/* what the store held per kept inode, when it got that far: a
	 * snapshot's fields are in a stream beside its 16-byte slots */
	if (r->inodes && r->store_bytes / r->inodes > per)
		per = r->store_bytes / r->inodes;
	need = used * (per + 32);
	need = need > budget / 4 * 3 ? need - budget / 4 * 3 : 0;
	need += (2 * (uint64_t)r->scan_threads + 2) * block;
	return need > least ? need : least;
}

enum xb_exit
xb_names_error(const char *cmd, const struct xbulk_fs *fs, const char *path,
	       const struct xb_memory *mem, const struct xbulk_names_result *r,
	       int err)
{
	bool setup = r->fail == XBULK_NAMES_FAIL_SETUP ||
		     (r->fail == XBULK_NAMES_FAIL_SCAN &&
		      r->scan_fail == XBULK_SCAN_FAIL_SETUP);
	const char *tmpdir = mem->tmpdir ? mem->tmpdir : "the spill directory";
	char why[XB_THREAD_TEXT];

	/* the memory budget's spill file (xbulk_names_opts .tmpdir) */
	if (r->fail == XBULK_NAMES_FAIL_SPILL && err == -ENOSPC)
		xb_error(cmd, "no room in %s for the spill file: %llu bytes "
			 "placed of about %llu needed (--tmpdir, --memory)",
			 tmpdir, (unsigned long long)r->spill_bytes,
			 (unsigned long long)spill_need(fs, r, mem->memory));
	else if (r->fail == XBULK_NAMES_FAIL_SPILL && err == -EXDEV)
		xb_error(cmd, "%s is on the scanned filesystem: no spill file "
			 "there (--tmpdir elsewhere, --memory)", tmpdir);
	else if (r->fail == XBULK_NAMES_FAIL_SPILL)
		xb_error(cmd, "%s: cannot make the spill file: %s", tmpdir,
			 strerror(-err));
	/* the setup's only EAGAIN is pthread_create()'s */
	else if (setup && err == -EAGAIN)
		xb_error(cmd, "%s: %s", path,
			 xb_thread_text(err, why, sizeof(why)));
	else if (r->fail == XBULK_NAMES_FAIL_SCAN &&
		 r->scan_fail == XBULK_SCAN_FAIL_SETUP)
		xb_error(cmd, "%s: cannot set up the scan: %s", path,
			 strerror(-err));
	else if (r->fail == XBULK_NAMES_FAIL_SCAN &&
		 r->scan_fail != XBULK_SCAN_FAIL_BATCH)
		return xb_ioctl_error(cmd, fs, path, "bulkstat", err);
	else if (r->fail == XBULK_NAMES_FAIL_HANDLE && err == -EPERM)
		xb_error(cmd, "%s: open_by_handle_at: %s (reading directories "
			 "by handle needs CAP_DAC_READ_SEARCH)", path,
			 strerror(-err));
	else if (r->fail == XBULK_NAMES_FAIL_HANDLE)
		xb_error(cmd, "%s: open_by_handle_at: %s", path,
			 strerror(-err));
	else
		xb_error(cmd, "%s: %s", path, strerror(-err));
	return XB_EXIT_FAILURE;
}

void
xb_ag_fault_text(const struct xbulk_ag_fault *f, char *buf, size_t size)
{
	const char *call = f->call == XBULK_KIND_INUMBERS ? "inumbers" :
							    "bulkstat";
	char why[160];

	if (f->err != -EPROTO)
		snprintf(why, sizeof(why), "%s", strerror(-f->err));
	else if (f->ino <= f->cursor)
		snprintf(why, sizeof(why),
			 "the kernel's answer goes back to inode %llu (is the inode btree damaged? see xfs_repair -n)",
			 (unsigned long long)f->ino);
	else
		snprintf(why, sizeof(why),
			 "the kernel's answer is out of order at inode %llu (is the inode btree damaged? see xfs_repair -n)",
			 (unsigned long long)f->ino);
	snprintf(buf, size,
		 "AG %u: %s from inode %llu: %s; the rest of AG %u was not scanned",
		 f->agno, call, (unsigned long long)f->cursor, why, f->agno);
}

enum xb_exit
xb_write_error(const char *cmd, int err)
{
	if (err == -EPIPE)
		return XB_EXIT_PIPE;
	xb_error(cmd, "write to stdout: %s", strerror(-err));
	return XB_EXIT_FAILURE;
}

void
xb_dirs_gone(const char *cmd, uint64_t n)
{
	if (n == 1)
		xb_error(cmd, "1 directory was removed or renamed during the "
			 "scan and was skipped");
	else
		xb_error(cmd, "%llu directories were removed or renamed "
			 "during the scan and were skipped",
			 (unsigned long long)n);
}

bool
xb_sync_fs(const char *cmd, const struct xbulk_fs *fs, const char *path)
{
	int err = xbulk_fs_sync(fs);

	if (!err)
		return false;
	xb_error(cmd, "%s: syncfs: %s (sizes of data not yet written may "
		 "be those on disk; --no-sync skips it)", path, strerror(-err));
	return true;
}

const char *
xb_dir_open_hint(int err)
{
	return err == -EPERM ? " (reading a directory one does not own, and "
			       "so what lies below it, without changing its "
			       "atime needs CAP_FOWNER)" : "";
}

unsigned int
xb_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > XB_MAX_THREADS ? XB_MAX_THREADS : (unsigned int)n;
}

/* Interrupts the writing thread's write() (ignored by default). */
#define XB_WAKE_SIGNAL	SIGURG

/* /dev/null, ready for on_stop_signal() (-1 if it could not be opened). */
static int devnull_fd = -1;

/* The thread that caught the signals first: the one that writes. */
static pthread_t writer_thread;

/* XB_WAKE_SIGNAL's handler: its arrival is all (it interrupts a write). */
static void
on_wake(int signo)
{
	(void)signo;
}

/*
 * Note the signal; the command sees it within 100 ms and exits 128+signo.
 * A write blocked on a full pipe would be restarted (SA_RESTART) and wait
 * for the reader, however long: stdout is pointed at /dev/null, so that
 * the restarted write returns at once.  Nothing written after the signal
 * reaches the reader, as with find or du killed by it.  A process signal
 * may be taken by any thread (a scan worker, a directory reader): the
 * writing thread's write is then interrupted by XB_WAKE_SIGNAL, so that
 * it too is restarted on /dev/null.
 */
static void
on_stop_signal(int signo)
{
	int saved = errno;

	caught_signal = signo;
	if (devnull_fd >= 0 && !stdout_closed)
		dup2(devnull_fd, STDOUT_FILENO);
	if (!pthread_equal(pthread_self(), writer_thread))
		pthread_kill(writer_thread, XB_WAKE_SIGNAL);
	errno = saved;
}

const volatile int *
xb_catch_signals(void)
{
	struct sigaction sa = {
		.sa_handler = on_stop_signal,
		/* A second signal kills at once, e.g. while a write blocks. */
		.sa_flags = SA_RESTART | SA_RESETHAND,
	};

	struct sigaction wake = {
		.sa_handler = on_wake,
		.sa_flags = SA_RESTART,
	};

	if (devnull_fd < 0)
		devnull_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	writer_thread = pthread_self();
	sigemptyset(&wake.sa_mask);
	sigaction(XB_WAKE_SIGNAL, &wake, NULL);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return &caught_signal;
}

_Static_assert(XB_EXIT_SIGINT == 128 + SIGINT &&
	       XB_EXIT_SIGTERM == 128 + SIGTERM &&
	       XB_EXIT_PIPE == 128 + SIGPIPE, "exit statuses of signals");

enum xb_exit
xb_signal_exit_status(void)
{
	/* XB_EXIT_SIGINT or XB_EXIT_SIGTERM: the signals caught */
	return (enum xb_exit)(128 + caught_signal);
}

size_t
xb_utf8_len(const unsigned char *p)
{
	/* Unicode's table 3-7: the lead byte gives the length and the
	 * range of the second byte (no overlong form, surrogate or code
	 * point past U+10FFFF); the others are 80-BF */
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (*p < 0x80)
		return 1;
	if (*p < 0xc2 || *p > 0xf4)
		return 0;
	len = *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : 4;
	if (*p == 0xe0)
		lo = 0xa0;
	else if (*p == 0xed)
		hi = 0x9f;
	else if (*p == 0xf0)
		lo = 0x90;
	else if (*p == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

void
xb_base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		"0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		unsigned int v = (unsigned int)p[i] << 16 |
				 (unsigned int)p[i + 1] << 8 | p[i + 2];

		fprintf(f, "%c%c%c%c", b64[v >> 18], b64[(v >> 12) & 63],
			b64[(v >> 6) & 63], b64[v & 63]);
	}
	if (n - i == 1)
		fprintf(f, "%c%c==", b64[p[i] >> 2], b64[(p[i] & 3) << 4]);
	else if (n - i == 2)
		fprintf(f, "%c%c%c=", b64[p[i] >> 2],
			b64[((p[i] & 3) << 4) | (p[i + 1] >> 4)],
			b64[(p[i + 1] & 15) << 2]);
}


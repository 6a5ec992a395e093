/* Every file symsplit reads comes through here: an ELF file, the allowlist,
 * the ld.so cache, a live process's files.  The file is looked at before it
 * is opened (an O_PATH descriptor: a device's open has effects, a FIFO's
 * waits), and only a regular file passes: a FIFO never ends, /dev/zero
 * never ends, a directory has no bytes to read. */
#include "base/symsplit.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode)) return "is a directory";
    if (S_ISFIFO(mode)) return "is a FIFO, not a regular file";
    if (S_ISCHR(mode)) return "is a character device, not a regular file";
    if (S_ISBLK(mode)) return "is a block device, not a regular file";
    if (S_ISSOCK(mode)) return "is a socket, not a regular file";
    return "is not a regular file";
}

/* "/proc/PID/root/REST": REST as process PID sees it, inside its root and
 * its mount namespace; where it points is the process's to choose (its
 * link map, its symlinks), so nothing may lead out of that root: ".." stops
 * at it and an absolute symlink starts from it, as for the process itself.
 * openat2's RESOLVE_IN_ROOT does that (Linux 5.6); before it, walk_in_root. */
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define MAX_LINKS 40   /* the kernel's own limit on symlinks in one lookup */

static int walk_in_root(int root, const char *rest)
{
    int fds[256], depth = 0, links = 0, fd = -1;   /* fds[0] is root, not ours to close */
    char *todo = xstrdup(rest), *p = todo;
    fds[0] = root;
    for (;;) {
        while (*p == '/') p++;
        if (!*p) { fd = depth ? fds[depth--] : dup(root); break; }   /* the path named a directory */
        char *end = p + strcspn(p, "/"), keep = *end;
        *end = 0;
        if (!strcmp(p, ".")) { *end = keep; p = end; continue; }
        if (!strcmp(p, "..")) { if (depth) close(fds[depth--]); *end = keep; p = end; continue; }
        fd = openat(fds[depth], p, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        *end = keep;
        struct stat st;
        if (fd < 0 || fstat(fd, &st) < 0) break;
        if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t k = readlinkat(fd, "", target, sizeof target - 1);
            close(fd);
            fd = -1;
            if (k < 0) break;
            if (++links > MAX_LINKS) { errno = ELOOP; break; }
            target[k] = 0;
            if (*target == '/') while (depth) close(fds[depth--]);
            char *next = xasprintf("%s%s", target, end);
            free(todo);
            p = todo = next;
            continue;
        }
        p = end;
        while (*p == '/') p++;
        if (!*p) break;                                   /* the last component: fd is it */
        if (!S_ISDIR(st.st_mode) || depth == 255) { close(fd); fd = -1; errno = S_ISDIR(st.st_mode) ? ENAMETOOLONG : ENOTDIR; break; }
        fds[++depth] = fd;
        fd = -1;
    }
    int e = errno;
    while (depth) close(fds[depth--]);
    free(todo);
    errno = e;
    return fd;
}

/* The root another machine's files are read from (--sysroot): as qemu-user's
 * -L gives its guest, an absolute path is looked for under it first, then
 * as written (a program built elsewhere, the emulator's own /proc). */
static const char *sysroot;
void input_sysroot(const char *dir) { sysroot = dir; }

static int under_sysroot(const char *path)
{
    if (!sysroot || *path != '/' || !strncmp(path, "/proc/", 6)) return -1;
    char *p = xasprintf("%s%s", sysroot, path);
    int fd = open(p, O_PATH | O_CLOEXEC);
    free(p);
    return fd;
}

/* An O_PATH descriptor of path: it opens nothing (no device's open, no
 * FIFO's wait) and says what the file is before anything is read. */
static int path_fd(const char *path)
{
    const char *pid = path + 6;
    size_t n = strncmp(path, "/proc/", 6) ? 0 : strspn(pid, "0123456789");
    int fd = under_sysroot(path);
    if (fd >= 0) return fd;
    if (!n || strncmp(pid + n, "/root/", 6)) return open(path, O_PATH | O_CLOEXEC);
    char *root = xasprintf("%.*s", (int)(pid + n + 5 - path), path);
    int rfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    free(root);
    if (rfd < 0) return -1;
    struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
    fd = (int)syscall(SYS_openat2, rfd, pid + n + 6, &how, sizeof how);
    if (fd < 0 && (errno == ENOSYS || errno == EPERM)) fd = walk_in_root(rfd, pid + n + 6);   /* EPERM: a seccomp filter */
    int e = errno;
    close(rfd);
    errno = e;
    return fd;
}

int stat_input(const char *path, struct stat *st)
{
    int fd = path_fd(path), e = fd < 0 || fstat(fd, st) < 0 ? errno : 0;
    if (fd >= 0) close(fd);
    errno = e;
    return e ? -1 : 0;
}

int open_input(const char *path, struct stat *st, char **err)
{
    if (!*path) { *err = xasprintf("'': empty file name"); return -1; }
    int pfd = path_fd(path), fd = -1;
    if (pfd < 0) { *err = xasprintf("%s: %s", path, strerror(errno)); return -1; }
    if (fstat(pfd, st) < 0) *err = xasprintf("%s: %s", path, strerror(errno));
    else if (!S_ISREG(st->st_mode)) *err = xasprintf("%s: %s", path, file_kind(st->st_mode));
    else {
        /* the file checked, opened through its descriptor; without /proc
         * (a bare chroot) by name, and only if it is still that file */
        char *self = xasprintf("/proc/self/fd/%d", pfd);
        struct stat now;
        fd = open(self, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        free(self);
        if (fd < 0 && errno == ENOENT) fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) *err = xasprintf("%s: %s", path, strerror(errno));
        else if (fstat(fd, &now) < 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
            *err = xasprintf("%s: replaced while opened", path);
            close(fd);
            fd = -1;
        }
    }
    close(pfd);
    return fd;
}

/* A file truncated while it is mapped (an upgrade rewriting a library in
 * place, a build writing the file scanned) makes every read past its new
 * end a SIGBUS.  The fault's address says which input: one line naming it,
 * exit 2, as for any bad input; a SIGBUS anywhere else stays a crash. */
struct mapped { const char *lo; size_t len; char *path; struct mapped *next; };
static struct mapped *mapped;   /* changed only outside the handler; the fault is synchronous */

static void say(const char *s) { if (write(2, s, strlen(s)) < 0) {} }
static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    for (const struct mapped *m = mapped; m; m = m->next)
        if ((const char *)si->si_addr >= m->lo && (const char *)si->si_addr < m->lo + m->len) {
            say("symsplit: "); say(m->path); say(": changed while read (cut short after symsplit mapped it)\n");
            _exit(2);
        }
    signal(sig, SIG_DFL);   /* not an input: the fault recurs and kills, as it would have */
}

/* MAP_PRIVATE + PROT_WRITE: libelf may fix up in place; nothing reaches the file. */
void *map_input(const char *path, struct stat *st, char **err)
{
    int fd = open_input(path, st, err);
    if (fd < 0) return NULL;
    void *map = NULL;
    if (st->st_size == 0) *err = xasprintf("%s: empty file", path);
    else if ((map = mmap(NULL, st->st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
        map = NULL;
        *err = xasprintf("%s: mmap: %s", path, strerror(errno));
    }
    close(fd);
    static int armed;
    if (map && !armed++) {
        struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, NULL);
    }
    if (map) {
        struct mapped *m = xcalloc(1, sizeof *m);
        *m = (struct mapped){ map, st->st_size, xstrdup(path), mapped };
        mapped = m;
    }
    return map;
}

/* A whole-code scan (calls.c, reach.c) reads every page of a library's
 * code once: kept mapped, the pages stay resident as long as the module
 * does (34 MiB of libnode's .text, most of one image's peak).  Dropped, a
 * later read faults them in again from the file, the same bytes: nothing
 * is lost, as no code page is ever written.  Only whole pages inside
 * [p, p + len), and only inside map (what map_input returned, size bytes;
 * NULL: memory the caller lent, never dropped). */
void release_input(const void *map, size_t size, const void *p, size_t len)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo = ((uintptr_t)p + page - 1) & ~(page - 1),
              hi = ((uintptr_t)p + len) & ~(page - 1);
    if (map && (const char *)p >= (const char *)map && (const char *)p + len <= (const char *)map + size && lo < hi)
        madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* For a scan in address order: the pages of [from, to) once they are a
 * step behind it, so that one scan holds a step of code, not the whole
 * section.  Returns where the next call starts (a page boundary). */
enum { RELEASE_STEP = 1 << 20 };
const unsigned char *release_behind(const void *map, size_t size, const unsigned char *from, const unsigned char *to)
{
    if (to < from || (size_t)(to - from) < RELEASE_STEP) return from;
    const unsigned char *cut = (const unsigned char *)((uintptr_t)to & ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1));
    release_input(map, size, from, cut - from);
    return cut;
}

void unmap_input(void *map, size_t size)
{
    for (struct mapped **p = &mapped; *p; p = &(*p)->next)
        if ((*p)->lo == map) {
            struct mapped *m = *p;
            *p = m->next;
            free(m->path);
            free(m);
            break;
        }
    munmap(map, size);
}

/* Every file symsplit reads comes through here: an ELF file, the allowlist,
 * the ld.so cache.  open() comes with O_NONBLOCK so that a FIFO cannot stall
 * the run before the check, and only a regular file passes the check: a FIFO
 * never ends, /dev/zero never ends, a directory has no bytes to read. */
#include "base/symsplit.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

int open_input(const char *path, struct stat *st, char **err)
{
    if (!*path) { *err = xasprintf("'': empty file name"); return -1; }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { *err = xasprintf("%s: %s", path, strerror(errno)); return -1; }
    if (fstat(fd, st) < 0) *err = xasprintf("%s: %s", path, strerror(errno));
    else if (!S_ISREG(st->st_mode)) *err = xasprintf("%s: %s", path, file_kind(st->st_mode));
    else return fd;
    close(fd);
    return -1;
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

/* Every file symsplit reads comes through here: an ELF file, the allowlist,
 * the ld.so cache.  open() comes with O_NONBLOCK so that a FIFO cannot stall
 * the run before the check, and only a regular file passes the check: a FIFO
 * never ends, /dev/zero never ends, a directory has no bytes to read. */
#include "base/symsplit.h"
#include <errno.h>
#include <fcntl.h>
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
    return map;
}

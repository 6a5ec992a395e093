/* Where symsplit's results go.  --json-out FILE: refused up front when FILE
 * exists and is no regular file (a FIFO would block the run, /dev/full eats
 * it) or is one of the files analysed (same device and inode: `--json-out
 * app app` must not replace the executable with its report); the object is
 * written to a temporary file beside FILE and renamed over it, so a failed or
 * interrupted run never leaves half an object under FILE's name.  stdout is
 * checked when the run ends: a full disk is an error (exit 2), not a loss. */
#include "base/symsplit.h"
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The real path FILE names (it may not exist yet: then its directory's). */
static char *resolve(const char *path, char **err)
{
    char *r = realpath(path, NULL);
    if (r) return r;
    if (errno != ENOENT) { *err = xasprintf("--json-out %s: cannot write it: %s", path, strerror(errno)); return NULL; }
    char *d = xstrdup(path), *b = xstrdup(path), *dir = realpath(dirname(d), NULL);
    if (!dir) *err = xasprintf("--json-out %s: cannot write it: %s", path, strerror(errno));
    else r = xasprintf("%s/%s", strcmp(dir, "/") ? dir : "", basename(b));
    free(dir);
    free(d);
    free(b);
    return r;
}

int outfile_check(struct outfile *o, const char *path, char **err)
{
    memset(o, 0, sizeof *o);
    o->arg = path;
    if (!*path) { *err = xasprintf("--json-out '': empty file name"); return -1; }
    if (!(o->path = resolve(path, err))) return -1;
    struct stat st;
    if (stat(o->path, &st) == 0) {
        if (!S_ISREG(st.st_mode)) { *err = xasprintf("--json-out %s: %s", path, file_kind(st.st_mode)); return -1; }
        o->exists = 1;
        o->dev = st.st_dev;
        o->ino = st.st_ino;
        o->mode = st.st_mode & 07777;
    }
    char *d = xstrdup(o->path);
    int ok = access(dirname(d), W_OK | X_OK) == 0;
    if (!ok) *err = xasprintf("--json-out %s: cannot write it: %s", path, strerror(errno));
    free(d);
    return ok ? 0 : -1;
}

int outfile_clash(const struct outfile *o, dev_t dev, ino_t ino, const char *input, char **err)
{
    if (!o->exists || o->dev != dev || o->ino != ino) return 0;
    *err = xasprintf("--json-out %s: is %s, an input of this run: refusing to overwrite it", o->arg, input);
    return -1;
}

int outfile_refuse_input(const struct outfile *o, const char *input, char **err)
{
    struct stat st;
    return input && stat(input, &st) == 0 ? outfile_clash(o, st.st_dev, st.st_ino, input, err) : 0;
}

/* The whole object at once, signals held off between creating the temporary
 * file and renaming it (nothing left behind by a Ctrl-C in that window). */
int outfile_write(const struct outfile *o, const char *buf, size_t len, char **err)
{
    sigset_t hold, old;
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    sigaddset(&hold, SIGHUP);
    sigprocmask(SIG_BLOCK, &hold, &old);
    char *d = xstrdup(o->path), *b = xstrdup(o->path);
    char *tmp = xasprintf("%s/.%s.XXXXXX", dirname(d), basename(b));
    int fd = mkstemp(tmp), e = 0;
    if (fd < 0) e = errno;
    else {
        mode_t um = umask(0);
        umask(um);
        if (fchmod(fd, o->exists ? o->mode : 0666 & ~um) < 0) e = errno;
        for (size_t off = 0; !e && off < len;) {
            ssize_t k = write(fd, buf + off, len - off);
            if (k < 0 && errno == EINTR) continue;
            if (k < 0) e = errno;
            else off += k;
        }
        if (!e && fsync(fd) < 0 && errno != EINVAL) e = errno;
        if (close(fd) < 0 && !e) e = errno;
        if (!e && rename(tmp, o->path) < 0) e = errno;
        if (e) unlink(tmp);
    }
    if (e) *err = xasprintf("--json-out %s: cannot write it: %s", o->arg, strerror(e));
    free(tmp);
    free(d);
    free(b);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return e ? -1 : 0;
}

void outfile_free(struct outfile *o) { free(o->path); o->path = NULL; }

int stdout_close(char **err)
{
    errno = 0;
    int bad = fflush(stdout) == EOF, e = errno;
    bad |= ferror(stdout);
    if (fclose(stdout) == EOF && !bad) { bad = 1; e = errno; }
    if (bad) *err = xasprintf("stdout: write error%s%s", e ? ": " : "", e ? strerror(e) : "");
    return bad ? -1 : 0;
}

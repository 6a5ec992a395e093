/* --trace -- CMD ARGS: the one mode that runs something.  CMD runs under
 * LD_DEBUG=files,scopes,bindings with LD_DEBUG_OUTPUT in a private temporary
 * directory (removed afterwards), and this is the one reader of that
 * record (CMD's own process; what it starts writes records of its own):
 *   file=NAME [N];  dynamically loaded by C [M]   a dlopen attempt into
 *                                   namespace N, which may find nothing
 *                                   (libepoxy's libGLX.so.1); a dlmopen of a
 *                                   path with a slash prints none
 *   opening file=PATH [N]; direct_opencount=K     the dlopen (N 0) or
 *                                   dlmopen (N > 0) succeeded: a module
 *   file=NAME [N];  generating link map   the loader mapped the object (NAME
 *                                   as asked): a dlopen's root counts from
 *                                   here, whether or not its constructors
 *                                   return (one that aborts never prints
 *                                   "opening")
 *   object=PATH [N]                 LD_DEBUG=scopes, each object of a new
 *                                   closure, its root first: the mapped
 *                                   root's path
 *   add PATH [0] to global scope    opened (or promoted) RTLD_GLOBAL
 *   binding file A [N] to B [M]: ... `S' [V]      A's reference to S@V, in
 *                                   namespace N, runs on B's (M is 0 for
 *                                   ld.so, which every namespace shares)
 * Every object carries its namespace, [0] the main one (glibc 2.36 and
 * 2.41 alike).  The attempts give the real dlopen order; the bindings are
 * observed (observed.c) and beat the model's; the image layer models each
 * namespace apart (closure.c).  symsplit waits for CMD: nothing it
 * starts outlives it. */
#include "base/symsplit.h"
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The reader's state over one record: dlopen attempts in program order. */
struct attempt { char *name, *path, *origin; long ns; int mapped; };   /* path: set by the "opening file=" that ends a dlopen well */
struct record {
    struct trace *t; const char *argv0; struct attempt *a; int n, cap; struct strmap global;
    struct strmap deep;      /* objects whose first scope is their own searchlist: RTLD_DEEPBIND */
    char *obj;               /* the last "object=" of the main namespace, until its "scope 0:" */
    int ran, opening;        /* "transferring control" seen; a dlopen under way (its dependencies are "needed by") */
    int replaced;            /* the program replaced itself (exec): what follows is its successor's record */
};

/* The executable as the record names it: its argv[0] (ld.so prints the
 * program's own name so; "ls", not a path, when CMD was found in PATH),
 * or "<main program>" when it has none. */
static const char *program(const struct record *r, const char *name)
{
    return !strcmp(name, "<main program>") || !strcmp(name, r->argv0) ? r->t->exe : name;
}

/* "NAME [NS]" at s: NAME cut off in place; the namespace, or -1 */
static long ns_of(char *s)
{
    char *b = strstr(s, " [");
    if (!b) return -1;
    *b = 0;
    return strtol(b + 2, NULL, 10);
}

/* Did dlopen(requested) open path?  The record names the attempt as asked
 * ("libGL.so.1", "$ORIGIN/../lib/x.so", "./x.so") and the module as found. */
static int same_file(const struct attempt *a, const char *path)
{
    if (!strcmp(a->name, path)) return 1;
    if (!strchr(a->name, '/')) return !strcmp(base(path), a->name);
    char *n = xstrdup(a->name), *o;
    for (int k = 0; k < 4 && a->origin; k++) {   /* $ORIGIN: the caller's directory */
        const char *tok = "${ORIGIN}";
        if (!(o = strstr(n, tok)) && !(o = strstr(n, tok = "$ORIGIN"))) break;
        char *x = xasprintf("%.*s%s%s", (int)(o - n), n, a->origin, o + strlen(tok));
        free(n);
        n = x;
    }
    char *rn = realpath(n, NULL), *rp = realpath(path, NULL);
    int same = rn && rp && !strcmp(rn, rp);
    free(n); free(rn); free(rp);
    return same;
}

/* One line of the loader's record (after "PID:\t"), in any namespace: a
 * line without one is not the loader's. */
static void line(struct record *r, char *s)
{
    char *p, *e;
    /* after start-up, a dependency loaded outside any dlopen, in the main
     * namespace, for no relocation (a lazy call's "(relocation dependency)"
     * comes after the [0]; a dlmopen of a path prints no attempt, but its
     * namespace is another) is another program's start-up (exec writes its
     * record into the same file): the
     * rest is not this image's (env's own COPY relocations read against its
     * successor's libc bindings were false SPLITs) */
    if (r->replaced) return;
    if (!strncmp(s, "transferring control: ", 22)) r->ran = 1;
    if (r->ran && !r->opening && !strncmp(s, "file=", 5) && (p = strstr(s, "];  needed by ")) &&
        (e = strrchr(p, '[')) && !strcmp(e, "[0]")) { r->replaced = 1; return; }
    if (!strncmp(s, "binding file ", 13)) {   /* binding file A [0] to B [0]: normal symbol `S' [V] */
        char *a = s + 13, *to = strstr(a, "] to "), *sym = strchr(a, '`'), *se = sym ? strchr(sym, '\'') : NULL;
        if (!to || !se) return;
        char *b = to + 5, *ver = strstr(se + 1, " [");
        *se = 0;
        if (ver) { ver += 2; ver[strcspn(ver, "]")] = 0; }
        long ns = ns_of(a);
        if (ns < 0 || ns_of(b) < 0) return;
        observed_bind(&r->t->obs, program(r, a), ns, program(r, b), sym + 1, ver);
    } else if (!strncmp(s, "file=", 5) && (p = strstr(s, "];  dynamically loaded by "))) {
        char *caller = p + 26;   /* an attempt: it may find nothing (libGLX.so.1, dri/tls/...) */
        long ns = ns_of(s + 5);
        if (ns < 0 || ns_of(caller) < 0) return;
        const char *by = program(r, caller), *slash = strrchr(by, '/');
        GROW(r->a, r->n, r->cap);
        r->a[r->n++] = (struct attempt){ xstrdup(s + 5), NULL, slash ? xasprintf("%.*s", (int)(slash - by), by) : xstrdup("."), ns, 0 };
        r->opening = 1;
    } else if (!strncmp(s, "file=", 5) && (p = strstr(s, "];  generating link map")) && !p[23]) {
        /* mapped: the last attempt in its namespace still open is the one
         * that mapped it (a dependency maps after its dlopen's root) */
        p[1] = 0;
        long ns = ns_of(s + 5);
        for (int i = r->n - 1; ns >= 0 && i >= 0; i--)
            if (r->a[i].ns == ns && !r->a[i].path && !r->a[i].mapped) {
                r->a[i].mapped = !strcmp(r->a[i].name, s + 5) || same_file(&r->a[i], s + 5);
                break;
            }
    } else if (!strncmp(s, "object=", 7)) {
        long ns = ns_of(s + 7);   /* the first object of a mapped root's closure is the root */
        free(r->obj);
        r->obj = ns == 0 ? xstrdup(s + 7) : NULL;
        for (int i = r->n - 1; ns >= 0 && i >= 0; i--)
            if (r->a[i].ns == ns && r->a[i].mapped && !r->a[i].path) { r->a[i].path = xstrdup(s + 7); break; }
    } else if (!strncmp(s, "opening file=", 13) && strstr(s, "direct_opencount=")) {
        /* the dlopen succeeded; an empty name is the program itself (dlopen(NULL)) */
        *strstr(s, "; direct_opencount=") = 0;
        r->opening = 0;
        long ns = ns_of(s + 13);
        if (ns < 0 || !s[13]) return;
        for (int i = r->n - 1; i >= 0; i--)
            if (r->a[i].ns == ns && same_file(&r->a[i], s + 13) && (!r->a[i].path || !strcmp(r->a[i].path, s + 13))) {
                if (!r->a[i].path) r->a[i].path = xstrdup(s + 13);
                return;
            }
        /* a module already loaded, opened again (RTLD_NOLOAD|RTLD_GLOBAL...),
         * or a dlmopen of a path (no attempt line) */
        GROW(r->a, r->n, r->cap);
        r->a[r->n++] = (struct attempt){ xstrdup(s + 13), xstrdup(s + 13), NULL, ns, 0 };
    } else if (!strncmp(s, "scope 0: ", 9) && r->obj) {
        /* an object's first scope is the global one (it begins with the
         * program), or under RTLD_DEEPBIND its own dlopen's searchlist
         * (it begins with the root); measured, glibc 2.36 */
        size_t n = strcspn(s + 9, " ");
        if (n == strlen(r->obj) && !strncmp(s + 9, r->obj, n)) strmap_put(&r->deep, r->obj, r);
        free(r->obj);
        r->obj = NULL;
    } else if (!strncmp(s, "add ", 4) && (e = strstr(s, " to global scope")) && e[16] == 0) {
        *e = 0;   /* LD_DEBUG=scopes: opened (or promoted) RTLD_GLOBAL */
        if (ns_of(s + 4) == 0) strmap_put(&r->global, s + 4, r);
    }
}

/* The record read: the modules dlopened, in order, each once, RTLD_GLOBAL
 * when the loader added it to the global scope; the attempts that loaded
 * nothing apart. */
static void finish(struct record *r)
{
    struct trace *t = r->t;
    for (int i = 0; i < r->n; i++) {
        struct attempt *a = &r->a[i];
        int dup = 0;
        free(a->origin);
        if (!a->path) {
            for (int k = 0; k < t->nfailed && !dup; k++) dup = !strcmp(t->failed[k], a->name);
            if (!dup) { t->failed = xrealloc(t->failed, (t->nfailed + 1) * sizeof *t->failed); t->failed[t->nfailed++] = a->name; }
            else free(a->name);
            continue;
        }
        for (int k = 0; k < t->nroots && !dup; k++) dup = t->roots[k].ns == a->ns && !strcmp(t->roots[k].path, a->path);
        free(a->name);
        if (dup) { free(a->path); continue; }
        t->roots = xrealloc(t->roots, (t->nroots + 1) * sizeof *t->roots);
        /* dlmopen refuses RTLD_GLOBAL: only the main namespace has one to join */
        t->roots[t->nroots++] = (struct dlopen_req){ .path = a->path, .ns = (int)a->ns,
                                                     .kind = !a->ns && strmap_get(&r->global, a->path) ? SC_GLOBAL : SC_LOCAL,
                                                     .deepbind = !a->ns && strmap_get(&r->deep, a->path) };
    }
    free(r->a);
    for (size_t i = 0; i < r->global.cap; i++) free(r->global.keys[i]);
    free(r->global.keys);
    free(r->global.vals);
    for (size_t i = 0; i < r->deep.cap; i++) free(r->deep.keys[i]);
    free(r->deep.keys);
    free(r->deep.vals);
    free(r->obj);
}

static char *which(const char *cmd)
{
    if (strchr(cmd, '/')) return xstrdup(cmd);
    const char *path = getenv("PATH");
    char *dirs = xstrdup(path ? path : "/usr/bin:/bin"), *save, *d;
    for (char *q = dirs; (d = strtok_r(q, ":", &save)); q = NULL) {
        char *f = xasprintf("%s/%s", *d ? d : ".", cmd);
        if (!access(f, X_OK)) { free(dirs); return f; }
        free(f);
    }
    free(dirs);
    return NULL;
}

/* A signal to symsplit while CMD runs goes to CMD too; symsplit then waits
 * for it, removes its directory and dies of the same signal. */
static volatile sig_atomic_t child, caught;
static void forward(int sig)
{
    caught = sig;
    if (child > 0) kill(child, sig);
}

/* What CMD started and left running (a wrapper script's program, a helper
 * it forked) is re-parented to symsplit, the subreaper, as each parent
 * dies: SIGTERM to each child, then from 3 s on SIGKILL to every child,
 * again and again, until none is left (waitpid's ECHILD: a descendant still
 * running always has a parent in the tree, and the last one alive is ours).
 * Only our own children are signalled: a child's PID cannot be reused
 * before we reap it.  A chain that forks and exits is caught within
 * microseconds of each fork.  (No PID namespace: CMD would run as PID 1,
 * and a user may not have one in a chroot.)  Returns how many there were. */
#define REAP_GRACE_MS 3000
#define REAP_GIVE_UP_MS 30000
static long ms_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static int reap_rest(void)
{
    char *list = xasprintf("/proc/self/task/%d/children", (int)getpid());
    int left = -1;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long ms = 0; ms < REAP_GIVE_UP_MS; ms = ms_since(&t0)) {
        pid_t w = waitpid(-1, NULL, WNOHANG);
        if (w > 0 || (w < 0 && errno == EINTR)) continue;
        if (w < 0) break;                  /* ECHILD: none left */
        FILE *f = fopen(list, "r");
        int p, n = 0;
        while (f && fscanf(f, "%d", &p) == 1) {
            n++;
            if (left < 0) kill(p, SIGTERM);
            else if (ms >= REAP_GRACE_MS) kill(p, SIGKILL);
        }
        if (f) fclose(f);
        if (left < 0) left = n;
        if (ms < REAP_GRACE_MS) usleep(50000);
        else sched_yield();
    }
    if (waitpid(-1, NULL, WNOHANG) >= 0)
        fprintf(stderr, "symsplit: note: --trace: processes it started are still running after %d s of SIGKILL (uninterruptible?)\n",
                (REAP_GIVE_UP_MS - REAP_GRACE_MS) / 1000);
    free(list);
    return left < 0 ? 0 : left;
}

/* What CMD's process tree prints (stdout and stderr, one pipe) is passed
 * on to symsplit's stderr as it comes, and its last line kept: the message
 * a library prints before it aborts is evidence of who ended the process
 * (analyse/died.c).  A thread, so that waiting for CMD stays as it was. */
struct pump { int fd; volatile int stop; char tail[4096]; size_t n; pthread_t th; };
static void *pump_run(void *arg)
{
    struct pump *pp = arg;
    char buf[4096];
    for (;;) {
        struct pollfd pf = { pp->fd, POLLIN, 0 };
        int k = poll(&pf, 1, 100);
        if (k == 0) { if (pp->stop) break; continue; }   /* stopped: what is still queued was read */
        if (k < 0) { if (errno == EINTR) continue; break; }
        ssize_t r = read(pp->fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        for (ssize_t w = 0, x; w < r; w += x > 0 ? x : r) x = write(2, buf + w, r - w);
        if ((size_t)r >= sizeof pp->tail) { memcpy(pp->tail, buf + r - sizeof pp->tail, sizeof pp->tail); pp->n = sizeof pp->tail; }
        else {
            size_t keep = pp->n + r > sizeof pp->tail ? sizeof pp->tail - r : pp->n;
            memmove(pp->tail, pp->tail + pp->n - keep, keep);
            memcpy(pp->tail + keep, buf, r);
            pp->n = keep + r;
        }
    }
    return NULL;
}

/* The last non-empty line of the tail, or NULL. */
static char *last_line(const struct pump *pp)
{
    size_t e = pp->n;
    while (e && (pp->tail[e - 1] == '\n' || pp->tail[e - 1] == '\r' || pp->tail[e - 1] == ' ')) e--;
    if (!e) return NULL;
    size_t b = e;
    while (b && pp->tail[b - 1] != '\n') b--;
    return xasprintf("%.*s", (int)(e - b), pp->tail + b);
}

/* Runs CMD; 0 with *status, or -1 with *err when it cannot start (the
 * child's execv errno comes back through a close-on-exec pipe). */
static int run(const char *exe, char *const *cmd, const char *out, int *status, pid_t *cpid, char **said, char **err)
{
    int p[2], o[2];
    if (pipe2(p, O_CLOEXEC) < 0) { *err = xasprintf("--trace: pipe: %s", strerror(errno)); return -1; }
    if (pipe2(o, O_CLOEXEC) < 0) { *err = xasprintf("--trace: pipe: %s", strerror(errno)); close(p[0]); close(p[1]); return -1; }
    pid_t parent = getpid();
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        *err = xasprintf("--trace: fork: %s", strerror(errno));
        close(p[0]); close(p[1]); close(o[0]); close(o[1]);
        return -1;
    }
    if (!pid) {
        int e;
        /* it dies with symsplit, even by SIGKILL; its stdout and stderr
         * reach symsplit's stderr through the pump: symsplit's stdout is
         * the report alone */
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent || dup2(o[1], 1) < 0 || dup2(o[1], 2) < 0)
            e = errno ? errno : ESRCH;
        else {
            setenv("LD_DEBUG", "files,scopes,bindings", 1);
            setenv("LD_DEBUG_OUTPUT", out, 1);
            execv(exe, cmd);
            e = errno;
        }
        if (write(p[1], &e, sizeof e) < 0) {}
        _exit(127);
    }
    child = *cpid = pid;
    if (caught) kill(pid, caught);
    close(p[1]);
    close(o[1]);
    struct pump pp = { .fd = o[0] };
    int pumping = !pthread_create(&pp.th, NULL, pump_run, &pp);
    int e = 0;
    ssize_t k;
    while ((k = read(p[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(p[0]);
    for (int polls = 0;;) {   /* after a signal: 3 s for CMD to end, then SIGKILL */
        if (caught && polls++ == 60) kill(pid, SIGKILL);
        pid_t w = waitpid(pid, status, caught && polls <= 60 ? WNOHANG : 0);
        if (w == pid || (w < 0 && errno != EINTR)) break;
        if (caught && w == 0) usleep(50000);
    }
    child = 0;
    int left = reap_rest();
    pp.stop = 1;
    if (pumping) pthread_join(pp.th, NULL);
    close(o[0]);
    *said = last_line(&pp);
    if (left) fprintf(stderr, "symsplit: note: --trace: %s left %d process(es) running: stopped them\n", exe, left);
    if (k == sizeof e) { *err = xasprintf("--trace: %s: cannot run it: %s", exe, strerror(e)); return -1; }
    return 0;
}

/* The private directory: made by mkdtemp, then held open, and every file
 * in it reached through that descriptor (openat, unlinkat): whatever CMD or
 * another user of a shared TMPDIR puts at its name (a symlink to a
 * directory of someone else's), symsplit reads and removes only what is in
 * the directory it made.  Its name is removed last, only while it still is
 * that directory. */
struct tmpdir { int parent, fd; char *path; const char *name; struct stat st; };

static int tmpdir_make(struct tmpdir *d, char **err)
{
    const char *tmp = getenv("TMPDIR");
    *d = (struct tmpdir){ -1, -1, xasprintf("%s/symsplit-trace.XXXXXX", tmp && *tmp ? tmp : "/tmp"), NULL, { 0 } };
    if (!mkdtemp(d->path)) { *err = xasprintf("--trace: %s: %s", d->path, strerror(errno)); return -1; }
    char *slash = strrchr(d->path, '/');
    *slash = 0;
    d->parent = open(*d->path ? d->path : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    *slash = '/';
    d->name = slash + 1;
    if (d->parent >= 0) d->fd = openat(d->parent, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d->fd >= 0 && !fstat(d->fd, &d->st) && d->st.st_uid == geteuid() && !(d->st.st_mode & 077)) return 0;
    /* replaced between mkdtemp and open: not ours to remove */
    *err = xasprintf("--trace: %s: %s", d->path, d->fd < 0 ? strerror(errno) : "replaced as it was made (not a private directory)");
    if (d->fd >= 0) close(d->fd);
    if (d->parent >= 0) close(d->parent);
    d->fd = d->parent = -1;
    return -1;
}

/* Everything under dir, through descriptors, never following a link. */
static void empty_dir(int dir, int depth)
{
    int fd = dup(dir);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;
    if (!d) { if (fd >= 0) close(fd); return; }
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (!unlinkat(dir, e->d_name, 0) || errno != EISDIR || depth >= 16) continue;
        int sub = openat(dir, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub >= 0) { empty_dir(sub, depth + 1); close(sub); }
        unlinkat(dir, e->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

static void tmpdir_remove(struct tmpdir *d)
{
    struct stat now;
    empty_dir(d->fd, 0);
    if (!fstatat(d->parent, d->name, &now, AT_SYMLINK_NOFOLLOW) && now.st_dev == d->st.st_dev && now.st_ino == d->st.st_ino)
        unlinkat(d->parent, d->name, AT_REMOVEDIR);
    else
        fprintf(stderr, "symsplit: note: --trace: %s was moved or replaced while the program ran: emptied, its name left as found\n", d->path);
    close(d->fd);
    close(d->parent);
    free(d->path);
}

/* The record is the loader's text: a regular file, at most RECORD_MAX
 * bytes (ls writes 60 kB, a desktop program a few MB), read within
 * RECORD_SECONDS; a FIFO, a link (to /dev/zero, /dev/urandom) or a file
 * that keeps growing is no record.  A signal stops the reading. */
#define RECORD_MAX (1L << 30)
#define RECORD_SECONDS 60
static int read_record(struct record *r, int dir, const char *name, char **err)
{
    int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 && errno == ENOENT) return 0;   /* CMD ran nothing dynamic (a static program) */
    if (fd < 0) { *err = xasprintf("--trace: the loader's record %s: %s", name, errno == ELOOP ? "is a symbolic link, not a regular file" : strerror(errno)); return -1; }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > RECORD_MAX) {
        *err = xasprintf("--trace: the loader's record %s: %s", name, S_ISREG(st.st_mode) ? "larger than 1 GiB" : file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    FILE *in = fdopen(fd, "r");
    char *buf = NULL;
    size_t cap = 0;
    off_t total = 0;
    ssize_t k;
    char *why = NULL;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long no = 0; !caught && !why && (k = getline(&buf, &cap, in)) > 0; no++) {
        if ((total += k) > st.st_size) why = xasprintf("--trace: the loader's record %s: grew while read", name);
        else if (!(no & 4095) && ms_since(&t0) > RECORD_SECONDS * 1000)
            why = xasprintf("--trace: the loader's record %s: not read in %d s", name, RECORD_SECONDS);
        buf[strcspn(buf, "\n")] = 0;
        char *s = strchr(buf, ':');
        if (!s) continue;
        s++;
        while (*s == ' ' || *s == '\t') s++;
        line(r, s);
    }
    fclose(in);
    free(buf);
    if (why) *err = why;
    return why ? -1 : 0;
}

/* Reads the record of CMD's own process (ld.PID: a process it started
 * writes its own), then removes every file and the directory. */
static int collect(struct trace *t, const char *argv0, struct tmpdir *d, pid_t pid, char **err)
{
    struct record r = { .t = t, .argv0 = argv0 };
    char *mine = xasprintf("ld.%d", (int)pid);
    int rc = caught || !pid ? 0 : read_record(&r, d->fd, mine, err);
    free(mine);
    finish(&r);
    tmpdir_remove(d);
    return rc;
}

int trace_run(char *const *cmd, struct trace *t, char **err)
{
    memset(t, 0, sizeof *t);
    struct stat st;
    if (!(t->exe = which(cmd[0]))) { *err = xasprintf("--trace: %s: command not found", cmd[0]); return -1; }
    if (stat(t->exe, &st) < 0) { *err = xasprintf("--trace: %s: %s", t->exe, strerror(errno)); return -1; }
    if (!S_ISREG(st.st_mode)) { *err = xasprintf("--trace: %s: %s", t->exe, file_kind(st.st_mode)); return -1; }
    struct tmpdir dir;
    if (tmpdir_make(&dir, err)) return -1;
    char *out = xasprintf("%s/ld", dir.path);
    struct sigaction sa = { .sa_handler = forward }, old[3];   /* no SA_RESTART: waitpid returns */
    const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++) {   /* an ignored signal stays ignored (nohup, a background job's SIGINT) */
        sigaction(sigs[i], NULL, &old[i]);
        if (old[i].sa_handler != SIG_IGN) sigaction(sigs[i], &sa, NULL);
    }
    pid_t pid = 0;
    int rc = run(t->exe, cmd, out, &t->status, &pid, &t->said, err);
    if (collect(t, cmd[0], &dir, rc ? 0 : pid, rc ? &(char *){ NULL } : err)) rc = -1;
    for (int i = 0; i < 3; i++) sigaction(sigs[i], &old[i], NULL);
    free(out);
    if (caught) {   /* default action restored: dies of it, as CMD did */
        raise(caught);
        if (!rc) *err = xasprintf("--trace: interrupted (signal %d)", (int)caught);
        return -1;
    }
    return rc;
}

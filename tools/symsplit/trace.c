/* --trace -- CMD ARGS: the one mode that runs something.  CMD runs under
 * LD_DEBUG=bindings,files with LD_DEBUG_OUTPUT in a private temporary
 * directory (removed afterwards); from the loader's own record come the
 * modules it dlopened, in order, and every binding it made.  A finding whose
 * binding is in that record is marked "seen live".  symsplit waits for CMD:
 * nothing it starts outlives it. */
#include "symsplit.h"
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
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

static char *key(const char *binder, const char *target, const char *name)
{
    return xasprintf("%s\1%s\1%s", base(binder), base(target), name);
}

int trace_seen(const struct trace *t, const char *binder, const char *target, const char *name)
{
    char *k = key(binder, target, name);
    int seen = strmap_get(&t->live, k) != NULL;
    free(k);
    return seen;
}

/* One line of the loader's record (after "PID:\t"). */
static void line(struct trace *t, char *s)
{
    char *p;
    if (!strncmp(s, "binding file ", 13)) {   /* binding file A [0] to B [0]: normal symbol `S' [V] */
        char *a = s + 13, *to = strstr(a, " to "), *sym = strchr(s, '`');
        if (!to || !sym) return;
        char *ae = strstr(a, " ["), *b = to + 4, *be = strstr(b, " ["), *se = strchr(sym + 1, '\'');
        if (!ae || !be || !se) return;
        *ae = *be = *se = 0;
        char *k = key(a, b, sym + 1);
        strmap_put(&t->live, k, t);
        free(k);
    } else if (!strncmp(s, "file=", 5) && (p = strstr(s, "dynamically loaded by"))) {
        char *f = s + 5, *e = strstr(f, " [");
        if (!e) return;
        *e = 0;
        for (int i = 0; i < t->nroots; i++)
            if (!strcmp(t->roots[i], f)) return;
        t->roots = xrealloc(t->roots, (t->nroots + 1) * sizeof *t->roots);
        t->roots[t->nroots++] = xstrdup(f);
    }
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
 * it forked) is re-parented to symsplit, the subreaper: SIGTERM, 3 s, SIGKILL,
 * reaped.  Returns how many there were. */
static int reap_rest(void)
{
    char *list = xasprintf("/proc/self/task/%d/children", (int)getpid());
    int left = 0;
    for (int polls = 0; polls < 100; polls++) {
        pid_t w = waitpid(-1, NULL, WNOHANG);
        if (w > 0) continue;
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) break;                  /* ECHILD: none left */
        FILE *f = fopen(list, "r");
        int p, n = 0;
        while (f && fscanf(f, "%d", &p) == 1) {
            n++;
            if (polls == 0) kill(p, SIGTERM);
            if (polls == 60) kill(p, SIGKILL);
        }
        if (f) fclose(f);
        if (!polls) left = n;
        usleep(50000);
    }
    free(list);
    return left;
}

/* Runs CMD; 0 with *status, or -1 with *err when it cannot start (the
 * child's execv errno comes back through a close-on-exec pipe). */
static int run(const char *exe, char *const *cmd, const char *out, int *status, char **err)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) { *err = xasprintf("--trace: pipe: %s", strerror(errno)); return -1; }
    pid_t parent = getpid();
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) { *err = xasprintf("--trace: fork: %s", strerror(errno)); close(p[0]); close(p[1]); return -1; }
    if (!pid) {
        int e;
        /* it dies with symsplit, even by SIGKILL; its stdout is symsplit's
         * stderr: symsplit's stdout is the report alone */
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent || dup2(2, 1) < 0) e = errno ? errno : ESRCH;
        else {
            setenv("LD_DEBUG", "bindings,files", 1);
            setenv("LD_DEBUG_OUTPUT", out, 1);
            execv(exe, cmd);
            e = errno;
        }
        if (write(p[1], &e, sizeof e) < 0) {}
        _exit(127);
    }
    child = pid;
    if (caught) kill(pid, caught);
    close(p[1]);
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
    if (left) fprintf(stderr, "symsplit: note: --trace: %s left %d process(es) running: stopped them\n", exe, left);
    if (k == sizeof e) { *err = xasprintf("--trace: %s: cannot run it: %s", exe, strerror(e)); return -1; }
    return 0;
}

/* Reads every record file in dir (one per process that ran), then removes them and dir. */
static void collect(struct trace *t, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *f = xasprintf("%s/%s", dir, e->d_name), *buf = NULL;
        size_t cap = 0;
        FILE *in = caught ? NULL : fopen(f, "r");
        while (in && getline(&buf, &cap, in) > 0) {
            buf[strcspn(buf, "\n")] = 0;
            char *s = strchr(buf, ':');
            if (!s) continue;
            s++;
            while (*s == ' ' || *s == '\t') s++;
            line(t, s);
        }
        if (in) fclose(in);
        free(buf);
        unlink(f);
        free(f);
    }
    if (d) closedir(d);
    rmdir(dir);
}

int trace_run(char *const *cmd, struct trace *t, char **err)
{
    memset(t, 0, sizeof *t);
    struct stat st;
    if (!(t->exe = which(cmd[0]))) { *err = xasprintf("--trace: %s: command not found", cmd[0]); return -1; }
    if (stat(t->exe, &st) < 0) { *err = xasprintf("--trace: %s: %s", t->exe, strerror(errno)); return -1; }
    if (!S_ISREG(st.st_mode)) { *err = xasprintf("--trace: %s: %s", t->exe, file_kind(st.st_mode)); return -1; }
    const char *tmp = getenv("TMPDIR");
    char *dir = xasprintf("%s/symsplit-trace.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) { *err = xasprintf("--trace: %s: %s", dir, strerror(errno)); free(dir); return -1; }
    char *out = xasprintf("%s/ld", dir);
    struct sigaction sa = { .sa_handler = forward }, old[3];   /* no SA_RESTART: waitpid returns */
    const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++) {   /* an ignored signal stays ignored (nohup, a background job's SIGINT) */
        sigaction(sigs[i], NULL, &old[i]);
        if (old[i].sa_handler != SIG_IGN) sigaction(sigs[i], &sa, NULL);
    }
    int rc = run(t->exe, cmd, out, &t->status, err);
    collect(t, dir);
    for (int i = 0; i < 3; i++) sigaction(sigs[i], &old[i], NULL);
    free(dir);
    free(out);
    if (caught) {   /* default action restored: dies of it, as CMD did */
        raise(caught);
        if (!rc) *err = xasprintf("--trace: interrupted (signal %d)", (int)caught);
        return -1;
    }
    return rc;
}

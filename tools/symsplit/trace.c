/* --trace -- CMD ARGS: the one mode that runs something.  CMD runs under
 * LD_DEBUG=bindings,files with LD_DEBUG_OUTPUT in a private temporary
 * directory (removed afterwards); from the loader's own record come the
 * modules it dlopened, in order, and every binding it made.  A finding whose
 * binding is in that record is marked "seen live".  symsplit waits for CMD:
 * nothing it starts outlives it. */
#include "symsplit.h"
#include <dirent.h>
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

int trace_run(char *const *cmd, struct trace *t, char **err)
{
    memset(t, 0, sizeof *t);
    if (!(t->exe = which(cmd[0]))) { *err = xasprintf("--trace: %s: command not found", cmd[0]); return -1; }
    const char *tmp = getenv("TMPDIR");
    char *dir = xasprintf("%s/symsplit-trace.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) { *err = xasprintf("--trace: %s: %s", dir, strerror(errno)); free(dir); return -1; }
    char *out = xasprintf("%s/ld", dir);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) { *err = xasprintf("--trace: fork: %s", strerror(errno)); return -1; }
    if (!pid) {
        setenv("LD_DEBUG", "bindings,files", 1);
        setenv("LD_DEBUG_OUTPUT", out, 1);
        execv(t->exe, cmd);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        fprintf(stderr, "symsplit: note: --trace: %s exited 127 (could not run, or a library was missing)\n", t->exe);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *f = xasprintf("%s/%s", dir, e->d_name), *buf = NULL;
        size_t cap = 0;
        FILE *in = fopen(f, "r");
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
    free(dir);
    free(out);
    return 0;
}

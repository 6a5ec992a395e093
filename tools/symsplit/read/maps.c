/* --pid PID / --maps FILE: the files a process has actually mapped
 * (/proc/PID/maps, or a saved copy), in address order; image_maps.c makes
 * the image from them. */
#include "base/symsplit.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "start-end perms offset dev:dev inode [path]": the kernel's format; any
 * other line means FILE is no maps file (its bytes are not repeated). */
static int maps_line(const char *s, ssize_t len)
{
    unsigned long lo, hi, off, ino;
    unsigned maj, mn;
    char perms[5];
    int k = -1;
    if ((ssize_t)strlen(s) != len) return 0;   /* a NUL byte: binary */
    if (sscanf(s, "%lx-%lx %4s %lx %x:%x %lu%n", &lo, &hi, perms, &off, &maj, &mn, &ino, &k) != 7 || k < 0) return 0;
    if (strlen(perms) != 4 || strspn(perms, "rwxps-") != 4) return 0;
    return s[k] == 0 || s[k] == ' ' || s[k] == '\n';
}

/* Unique absolute paths of mapped files, in address order. */
char **maps_files(const char *file, int *n, char **err)
{
    struct stat st;
    int fd = open_input(file, &st, err);
    if (fd < 0) {
        char *why = *err;
        *err = xasprintf("--maps %s", why);
        free(why);
        return NULL;
    }
    FILE *f = fdopen(fd, "r");
    char *line = NULL, **paths = NULL;
    size_t cap = 0;
    *n = 0;
    ssize_t len;
    for (int no = 1; (len = getline(&line, &cap, f)) > 0; no++) {
        if (!maps_line(line, len)) {
            *err = xasprintf("--maps %s: line %d is not a /proc/PID/maps line (start-end perms offset dev inode [path])",
                             file, no);
            for (int i = 0; i < *n; i++) free(paths[i]);
            free(paths);
            free(line);
            fclose(f);
            return NULL;
        }
        char *p = strchr(line, '/');
        if (!p) continue;
        p[strcspn(p, "\n")] = 0;
        char *del = strstr(p, " (deleted)");
        if (del) *del = 0;
        int seen = 0;
        for (int i = 0; i < *n && !seen; i++) seen = !strcmp(paths[i], p);
        if (seen) continue;
        paths = xrealloc(paths, (*n + 1) * sizeof *paths);
        paths[(*n)++] = xstrdup(p);
    }
    int rerr = ferror(f) ? errno : 0;
    free(line);
    fclose(f);
    if (rerr) { *err = xasprintf("--maps %s: %s", file, strerror(rerr)); return NULL; }
    if (!*n) { *err = xasprintf("%s: no mapped files (not a /proc/PID/maps?)", file); return NULL; }
    return paths;
}

/* The kernel's PF_KTHREAD in /proc/PID/stat's flags (its ninth field, after
 * the command in parentheses): readable by anyone, where the exe link of a
 * kernel thread is ENOENT for root and EACCES for a user. */
static int kernel_thread(const char *pid)
{
    char *p = xasprintf("/proc/%s/stat", pid), buf[1024];
    FILE *f = fopen(p, "r");
    free(p);
    if (!f) return 0;
    size_t k = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[k] = 0;
    char *rp = strrchr(buf, ')');
    unsigned flags = 0;
    return rp && sscanf(rp + 1, " %*c %*d %*d %*d %*d %*d %u", &flags) == 1 && (flags & 0x00200000u);
}

char *maps_of_pid(const char *pid, char **exe, char **err)
{
    char *p = xasprintf("/proc/%s/exe", pid), buf[4096];
    ssize_t k = readlink(p, buf, sizeof buf - 1);
    free(p);
    if (k < 0) {
        /* Say which: a user mistakes a kernel thread (ps lists it, its exe
         * link is empty) or another user's process for a bad pid. */
        int e = errno;
        if (kernel_thread(pid))
            *err = xasprintf("--pid %s: a kernel thread (it maps no program)", pid);
        else if (e == ENOENT)
            *err = xasprintf("--pid %s: no such process", pid);
        else
            *err = xasprintf("--pid %s: cannot read /proc/%s/exe: %s (symsplit needs ptrace access to it: its user or root, as kernel.yama.ptrace_scope and any container allow)", pid, pid, strerror(e));
        return NULL;
    }
    buf[k] = 0;
    char *del = strstr(buf, " (deleted)");
    if (del) *del = 0;
    *exe = xstrdup(buf);
    return xasprintf("/proc/%s/maps", pid);
}

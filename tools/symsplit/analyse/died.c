/* --trace: the process's end is a fact.  A process that died (a signal, or
 * a non-zero exit) while two libraries with names in common were loaded is
 * a finding about those libraries, whatever the model says of their
 * bindings: GTK 4 probes the global scope for GTK 3's names and aborts on
 * purpose, two majors register one type name twice in one registry, and no
 * reference crosses in either.  This pass records how the process ended and
 * which of the modules the findings name holds the text of the last line it
 * printed (a library's own message, "GTK 2/3 symbols detected"); the policy
 * grades the COLLISION rows harmful. */
#include "analyse/analyse.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The longest piece of msg found verbatim in m's file (its format string's
 * literal parts survive printf; numbers, names and times do not). */
static size_t longest_in(const struct module *m, const char *msg)
{
    size_t n = strlen(msg), best = 0;
    if (!m->map) return 0;
    for (size_t i = 0; i < n; i++) {
        if (i && msg[i - 1] != ' ' && msg[i - 1] != ':' && msg[i - 1] != '(') continue;   /* word starts only */
        size_t lo = best + 1, hi = n - i;   /* only a longer piece can win */
        if (lo > hi || !memmem(m->map, m->size, msg + i, lo)) continue;
        while (lo < hi) {   /* the longest prefix of msg + i in the file */
            size_t mid = lo + (hi - lo + 1) / 2;
            if (memmem(m->map, m->size, msg + i, mid)) lo = mid; else hi = mid - 1;
        }
        best = lo;
    }
    return best;
}

/* Is module i one the findings name (a pair, a copy, a capture)?  Each
 * kind says, through FKINDS' third column. */
#define NAMES_ITEM(id, name, names) [id] = names,
static int (*const names[F_NKINDS])(const struct item *, int) = { FKINDS(NAMES_ITEM) };
static int named(const struct findings *fs, int i)
{
    for (int k = 0; k < fs->n; k++)
        if (names[fs->v[k].kind] && names[fs->v[k].kind](&fs->v[k], i)) return 1;
    return 0;
}

void find_death(struct findings *fs, const struct image *im)
{
    memset(&fs->died, 0, sizeof fs->died);
    fs->died.printer = -1;
    if (!im->ran) return;
    int st = im->ran->status;
    if (WIFSIGNALED(st)) { fs->died.how = DIED_SIGNAL; fs->died.code = WTERMSIG(st); }
    else if (WIFEXITED(st) && WEXITSTATUS(st)) { fs->died.how = DIED_EXIT; fs->died.code = WEXITSTATUS(st); }
    else return;
    const char *msg = im->ran->said;
    fs->died.said = msg;
    size_t best = 0, next = 0;
    for (int i = 0; msg && i < im->n; i++) {
        if (!named(fs, i)) continue;
        size_t l = longest_in(im->mods[i].m, msg);
        if (l > best) { next = best; best = l; fs->died.printer = i; }
        else if (l > next) next = l;
    }
    /* a printer is named only on a piece of its own: long enough to be a
     * message, and longer than any other module's */
    if (best < 16 || best == next) fs->died.printer = -1;
}

/* The state live.c reads from a process (--pid) and image_live.c turns
 * into the image: its mappings, its link-map objects, its slots. */
#ifndef LIVE_H
#define LIVE_H
#include "read/parse.h"
#include <elf.h>
#include <link.h>

struct mapping { uint64_t lo, hi; char *path; int deleted; };
enum { S_UNKNOWN, S_BOUND, S_LAZY };   /* what a slot shows: nothing usable, a definition, its own PLT */
struct slot { int target, def, state; };
struct lobj {                /* one link-map entry */
    uint64_t lm, addr, ld;   /* the link_map's address, l_addr, l_ld */
    char *name;              /* l_name as the process holds it (NULL: a repeat, not read) */
    int ns;
    const struct mapping *map;   /* the mapping holding its dynamic section; NULL: no file (the vDSO) */
    char *file;              /* where symsplit reads it */
    int idx;                 /* image index, -1 none */
    uint64_t lo, hi;         /* its PT_LOAD span in the process */
    char *soname;            /* its DT_SONAME as loaded, or NULL */
};
struct live {
    char *pid;
    int fd;                  /* /proc/PID/mem */
    char *root;              /* "/proc/PID/root" when the process has another root or mount namespace, else "" */
    struct mapping *maps; int nmaps;
    struct lobj *o; int n;
    int nns;
    int nrepeat;             /* entries repeating an earlier one's dynamic section: not a loader's, ignored */
    struct strmap at;        /* link_map address -> 1 + object index */
    int *global; int nglobal;    /* ld.so's main searchlist (object indices); nglobal -1: not read */
    struct strmap *slots; int nslots_of;   /* per image index: name -> struct slot */
    int nslots, nbound, nlazy;
    struct observed obs;     /* what the model asks (observed.c): obs.live is this */
};

/* n bytes at addr in the process's memory: 0, or -1 */
int live_read(const struct live *lv, uint64_t addr, void *buf, size_t n);
#endif

/* libFuzzer entry point: the ELF parser must turn any byte string into either
 * a module or a one-line error, never a crash or a sanitizer report.
 * Build: make symsplit-fuzz; run: see README.md. */
#include "base/symsplit.h"
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    if (!init++) elf_version(EV_CURRENT);
    void *buf = xcalloc(size ? size : 1, 1);   /* libelf may fix up its input in place */
    memcpy(buf, data, size);
    char *err = NULL;
    int wrong;
    struct module *m = module_parse(buf, size, "fuzz-input", 0, &err, &wrong);
    if (m) {
        m->borrowed = 1;   /* buf is this function's: never unmapped, its pages never released */
        /* touch what the model reads: names, versions, the hash chains */
        for (int i = 0; i < m->ndefs; i++) {
            module_find_defs(m, m->defs[i].name, m->defs[i].hash);
            calls_itself(m, i);   /* the direct-call byte scan over executable sections */
            function_state(m, &m->defs[i]);   /* Capstone over a function and its callees */
        }
        for (int i = 0; i < m->nrefs; i++)
            if (m->has_versym && m->refs[i].ver < m->nvers && m->vers[m->refs[i].ver].name) (void)strlen(m->vers[m->refs[i].ver].name);
        for (int i = 0; i < m->nneeded; i++) (void)strlen(m->needed[i]);
        module_free(m);
    }
    free(err);
    free(buf);
    return 0;
}

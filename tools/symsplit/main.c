/* symsplit [--dlopen PATH[:local|:global|:deepbind]]... [--allow FILE] [--json] EXECUTABLE...
 * --info also prints the rows that do not make the exit status (MAYBE, INFO).
 * Exit: 0 no split, 1 split found, 2 error (malformed input, bad usage). */
#include "report.h"
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(const char *why)
{
    fprintf(stderr, "symsplit: %s\nusage: symsplit [--dlopen PATH[:local|:global|:deepbind]]... [--allow FILE] [--json] [--info] EXECUTABLE...\n", why);
    return 2;
}

int main(int argc, char **argv)
{
    struct dlopen_req *dl = xcalloc(argc, sizeof *dl);
    const char **exes = xcalloc(argc, sizeof *exes);
    int ndl = 0, nexe = 0, json = 0, show_all = 0;
    struct allow *allow = NULL;
    char *err = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "--info")) show_all = 1;
        else if (!strcmp(a, "--dlopen") || !strcmp(a, "--allow")) {
            if (i + 1 >= argc) return usage(xasprintf("%s needs an argument", a));
            if (!strcmp(a, "--allow")) {
                if (!(allow = allow_load(argv[++i], &err))) { fprintf(stderr, "symsplit: %s\n", err); return 2; }
                continue;
            }
            char *p = xstrdup(argv[++i]), *c = strrchr(p, ':');
            dl[ndl].kind = SC_LOCAL;            /* RTLD_LOCAL is dlopen's default */
            if (c && !strcmp(c, ":global")) { dl[ndl].kind = SC_GLOBAL; *c = 0; }
            else if (c && !strcmp(c, ":local")) *c = 0;
            else if (c && !strcmp(c, ":deepbind")) { dl[ndl].kind = SC_DEEPBIND; *c = 0; }
            dl[ndl++].path = p;
        } else if (!strcmp(a, "--")) {
            while (++i < argc) exes[nexe++] = argv[i];
        } else if (a[0] == '-' && a[1]) return usage(xasprintf("unknown option '%s'", a));
        else exes[nexe++] = a;
    }
    if (!nexe) return usage("no EXECUTABLE given");
    elf_version(EV_CURRENT);
    struct report *r = report_new(json, show_all, allow);
    int errors = 0, images = 0;
    for (int e = 0; e < nexe; e++) {
        struct image im;
        if (image_build(&im, exes[e], dl, ndl, &err)) {
            fprintf(stderr, "symsplit: %s\n", err);   /* one line, naming the file */
            free(err);
            err = NULL;
            errors++;
        } else {
            images++;
            if (im.mods[0].m->is_static)
                fprintf(stderr, "symsplit: note: %s is statically linked: nothing is bound at run time\n", exes[e]);
            if (getenv("SYMSPLIT_DEBUG"))     /* the closure in load order, for checking against ldd */
                for (int i = 0; i < im.n; i++)
                    fprintf(stderr, "closure %s: %s => %s\n", exes[e], module_name(im.mods[i].m), im.mods[i].m->path);
            report_missing(r, &im);
            analyse_image(r, &im);
        }
        image_free(&im);
    }
    report_finish(r, images, errors);
    fflush(stdout);
    return errors ? 2 : report_splits(r) ? 1 : 0;
}

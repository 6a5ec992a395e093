/* symsplit [--dlopen PATH[:local|:global][:now|:lazy][:deepbind][:newns][:by=MODULE] | @FILE]... [--allow FILE] [--json] EXECUTABLE...
 * --info also prints the rows that do not make the exit status (MAYBE, INFO).
 * Exit: 0 no split, 1 split found, 2 error (malformed input, bad usage), 3 an image cannot load. */
#include "report/report.h"
#include <errno.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define USAGE "usage: symsplit [--dlopen PATH[:local|:global][:now|:lazy][:deepbind][:newns][:by=MODULE] | @FILE]... [--dlsym NAME[@VER]]... [--host node|python] [--preload LIB]... [--allow FILE] [--json] [--json-out FILE] [--info] [--copies] [--strict] [--sysroot DIR] EXECUTABLE...\n" \
              "       symsplit --bindings[=trace|run] [--dlopen ...]... [--preload LIB]... EXECUTABLE... | --pid PID | --trace -- CMD\n" \
              "       symsplit [options] --pid PID | --maps FILE [EXECUTABLE]\n" \
              "       symsplit [options] --trace -- CMD [ARGS]\n"
#define VERSION "symsplit 0.2 (split-state-lab)\n"

#define HELP \
    "Models how ld.so would bind EXECUTABLE (never runs it) and reports split state:\n" \
    "two live copies of one definition, references partitioned between them.\n" \
    "  --dlopen PATH[:flags]  a module the program opens at run time, in program order;\n" \
    "                         flags: local (default) | global, now | lazy, deepbind,\n" \
    "                         newns (dlmopen(LM_ID_NEWLM): a namespace of its own)\n" \
    "                         by=MODULE: MODULE calls dlopen (its search rules; default: the executable)\n" \
    "  --dlopen @FILE         the --dlopen arguments in FILE, one PATH[:flags] a line (blank lines skipped)\n" \
    "  --dlsym NAME[@VER]     the host looks NAME up on a --dlopen handle, or on its own\n" \
    "                         (dlopen(NULL), RTLD_DEFAULT: the global scope) (globs, repeatable)\n" \
    "  --host node|python     the entry points that host looks up (N-API, PyInit_*)\n" \
    "                         without either, a handle-only use is at most MAYBE\n" \
    "  --trace -- CMD [ARGS]  run CMD under LD_DEBUG (the only mode that runs anything):\n" \
    "                         its dlopens and scopes are the image, its bindings the truth,\n" \
    "                         findings marked observed (in the loader's record) or modelled;\n" \
    "                         CMD's stdout goes to stderr\n" \
    "  --pid PID              read the process (/proc/PID/mem): its link map, global scope\n" \
    "                         and GOT/PLT slots; findings marked observed or modelled\n" \
    "  --maps FILE            the objects a process mapped (a copy of /proc/PID/maps; --pid's\n" \
    "                         fallback): start-up closure global, other roots RTLD_LOCAL dlopens\n" \
    "                         (--pid, --maps, --trace: one of them)\n" \
    "  --preload LIB          as LD_PRELOAD (which is read from the environment too)\n" \
    "  --sysroot DIR          another machine's files, as qemu-user -L DIR gives them to its ld.so:\n" \
    "                         an absolute path is read under DIR where DIR has it, else as written\n" \
    "                         (the machine read is the first EXECUTABLE's: x86-64, aarch64, i386)\n" \
    "  --allow FILE           allowlist: one 'SYMBOL [MODULE]' glob pair a line\n" \
    "  --json                 one JSON object instead of the table\n" \
    "  --json-out FILE        the table, and the same JSON object written to FILE (one run for both;\n" \
    "                         a regular file, none of the inputs; written aside, then renamed)\n" \
    "  --info                 also print MAYBE and INFO rows\n" \
    "  --copies               COPY rows (libraries in 2+ copies) also without --dlopen\n" \
    "  --strict               LATENT and COPY rows set the exit status too\n" \
    "  --bindings[=trace|run] no findings: every symbol lookup ld.so makes to relocate each image\n" \
    "                         (as under LD_BIND_NOW) and the definition it binds, one line each;\n" \
    "                         trace (default): as ldd -r starts it; run: as a process that runs,\n" \
    "                         where the loader also relocates itself last, in the main scope:\n" \
    "                         binding FROM TO SYMBOL VERSION KIND observed|modelled [RISK] (tab-separated;\n" \
    "                         TO, VERSION - for none; KIND normal, copy, TLS, IFUNC, protected or filter;\n" \
    "                         RISK: the open may fail, depending on the run, and why), each image headed\n" \
    "                         by 'image PATH'; a --dlopen the loader refuses: 'fails ROOT FROM SYMBOL\n" \
    "                         VERSION OBJECT...', none of its bindings; exit 0, or 2 if an image failed\n" \
    "Exit: 0 no split, 1 split found, 2 error (bad input, bad usage), 3 an image cannot load.\n"

/* One line: what is wrong, and where to look. */
static int usage(const char *why)
{
    fprintf(stderr, "symsplit: %s (symsplit --help for usage)\n", why);
    return 2;
}

/* PATH[:local|:global][:now|:lazy][:deepbind][:newns][:by=MODULE], flags in any order after the
 * path.  A trailing ":word" of letters that is no flag is a typo, unless the
 * whole argument names an existing file. */
static int dlopen_arg(const char *arg, struct dlopen_req *r, char **err)
{
    static const char *const flags[] = { "local", "global", "now", "lazy", "deepbind", "newns" };
    static int namespaces;   /* the dlmopen(LM_ID_NEWLM) namespaces made so far */
    char *p = xstrdup(arg), *c;
    int seen[6] = { 0 };     /* none given: RTLD_LOCAL, as dlopen defaults */
    *r = (struct dlopen_req){ 0 };   /* @FILE's entries come from GROW's realloc: no by= is NULL, not what was there */
    while ((c = strrchr(p, ':')) && access(arg, F_OK) != 0) {
        size_t k = 0;
        if (!strncmp(c + 1, "by=", 3)) {   /* the module that calls dlopen: its search rules */
            if (!c[4]) { *err = xasprintf("--dlopen %s: by= needs a module", arg); return -1; }
            r->by = c + 4;
            *c = 0;
            continue;
        }
        while (k < 6 && strcmp(c + 1, flags[k])) k++;
        if (k == 6) {
            if (c[1] && strspn(c + 1, "abcdefghijklmnopqrstuvwxyz") == strlen(c + 1)) {
                *err = xasprintf("--dlopen %s: unknown flag '%s' (flags: local, global, now, lazy, deepbind, newns, by=MODULE)", arg, c + 1);
                return -1;
            }
            break;
        }
        seen[k] = 1;
        *c = 0;
    }
    if ((seen[0] && seen[1]) || (seen[2] && seen[3])) {
        *err = xasprintf("--dlopen %s: contradictory flags", arg);
        return -1;
    }
    if (!*p) { *err = xasprintf("--dlopen '%s': no path", arg); return -1; }
    r->kind = seen[1] ? SC_GLOBAL : SC_LOCAL;
    r->deepbind = seen[4];
    r->lazy = seen[3];
    r->ns = seen[5] ? ++namespaces : 0;   /* dlmopen(LM_ID_NEWLM): a namespace of its own */
    r->path = p;
    return 0;
}

/* --dlopen @FILE: the arguments of --dlopen one a line, in program order:
 * thousands of plugins pass the kernel's limit on a command line (ARG_MAX,
 * 2 MiB with an 8 MiB stack).  A line is read whole (a path may hold
 * spaces); a NUL byte would cut it short unseen. */
static int dlopen_list(const char *path, struct dlopen_req **dl, int *ndl, int *cap, char **err)
{
    struct stat st;
    int fd = open_input(path, &st, err), lineno = 0, bad = 0;
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "r");
    if (!f) { *err = xasprintf("%s: %s", path, strerror(errno)); close(fd); return -1; }
    char *line = NULL, *why = NULL;
    size_t lcap = 0;
    ssize_t len;
    errno = 0;
    while (!bad && (len = getline(&line, &lcap, f)) > 0) {
        lineno++;
        if (line[len - 1] == '\n') line[--len] = 0;
        if ((size_t)len != strlen(line)) { *err = xasprintf("%s:%d: NUL byte in the line", path, lineno); bad = 1; }
        else if (len) {
            GROW(*dl, *ndl, *cap);
            if (dlopen_arg(line, &(*dl)[(*ndl)++], &why)) { *err = xasprintf("%s:%d: %s", path, lineno, why); bad = 1; }
        }
    }
    if (!bad && ferror(f)) { *err = xasprintf("%s: %s", path, strerror(errno ? errno : EIO)); bad = 1; }
    free(line);
    fclose(f);
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    int dlcap = argc;
    struct dlopen_req *dl = xcalloc(dlcap, sizeof *dl);
    const char **exes = xcalloc(argc, sizeof *exes), **lists = xcalloc(argc, sizeof *lists);
    int nlists = 0, ndl = 0, nexe = 0, json = 0, show_all = 0, strict = 0, copies = 0, bindings = 0;
    struct allow *allow = NULL;
    struct dlsyms *dlsyms = NULL;
    const char *maps = NULL, *pid = NULL, *json_path = NULL, *allow_path = NULL, *sysroot = NULL;
    struct outfile jo = { 0 };
    char *jbuf = NULL;
    size_t jlen = 0;
    char *const *trace_cmd = NULL;
    struct trace tr, *live = NULL;
    struct live *lv = NULL;      /* --pid: the process's own record (live.c) */
    char *pid_exe = NULL;
    char *err = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "--version")) {
            fputs(strcmp(a, "--version") ? USAGE HELP : VERSION, stdout);
            if (!stdout_close(&err)) return 0;
            fprintf(stderr, "symsplit: %s\n", err);
            return 2;
        }
        if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "--strict")) strict = 1;
        else if (!strcmp(a, "--json-out")) {
            if (i + 1 >= argc) return usage("--json-out needs a file");
            if (json_path) return usage("--json-out given twice (one file per run)");
            json_path = argv[++i];
        }
        else if (!strcmp(a, "--copies")) copies = 1;
        else if (!strcmp(a, "--sysroot")) {   /* before any file is read: the ld.so cache is one */
            struct stat st;
            if (i + 1 >= argc) return usage("--sysroot needs a directory");
            sysroot = argv[++i];
            if (*sysroot != '/' || stat(sysroot, &st) || !S_ISDIR(st.st_mode))
                return usage(xasprintf("--sysroot %s: not an absolute path of a directory", sysroot));
            input_sysroot(sysroot);
        }
        else if (!strcmp(a, "--bindings") || !strncmp(a, "--bindings=", 11)) {
            /* trace (the default): as ldd -r starts a program; run: as a
             * process that runs, the loader's own relocation made too */
            if (a[10] && strcmp(a + 11, "trace") && strcmp(a + 11, "run"))
                return usage(xasprintf("%s: the mode is trace or run", a));
            bindings = keep_lookups = bind_now_all = 1;
            bindings_run = a[10] && !strcmp(a + 11, "run");
        }
        else if (!strcmp(a, "--info")) show_all = 1;
        else if (!strcmp(a, "--preload")) {   /* as LD_PRELOAD: also for a --trace run */
            if (i + 1 >= argc) return usage("--preload needs an argument");
            const char *old = getenv("LD_PRELOAD");
            char *v = old && *old ? xasprintf("%s:%s", old, argv[++i]) : xstrdup(argv[++i]);
            setenv("LD_PRELOAD", v, 1);
            free(v);
        } else if (!strcmp(a, "--trace")) {
            if (i + 2 >= argc || strcmp(argv[i + 1], "--")) return usage("--trace needs -- CMD [ARGS]");
            trace_cmd = argv + i + 2;
            break;
        } else if (!strcmp(a, "--maps") || !strcmp(a, "--pid")) {
            if (i + 1 >= argc) return usage(xasprintf("%s needs an argument", a));
            if (maps || pid) return usage("--pid and --maps name one process: give one of them, once");
            if (!strcmp(a, "--maps")) maps = argv[++i];
            else pid = argv[++i];
        } else if (!strcmp(a, "--dlsym") || !strcmp(a, "--host")) {
            if (i + 1 >= argc) return usage(xasprintf("%s needs an argument", a));
            if (!strcmp(a, "--dlsym")) dlsyms = dlsyms_add(dlsyms, argv[++i]);
            else if (!(dlsyms = dlsyms_host(dlsyms, argv[++i], &err))) return usage(err);
        } else if (!strcmp(a, "--dlopen") || !strcmp(a, "--allow")) {
            if (i + 1 >= argc) return usage(xasprintf("%s needs an argument", a));
            if (!strcmp(a, "--allow")) {
                if (!(allow = allow_load(allow_path = argv[++i], &err))) { fprintf(stderr, "symsplit: %s\n", err); return 2; }
                continue;
            }
            if (argv[++i][0] == '@') {   /* a list of them (a path beginning with @: ./@name) */
                if (dlopen_list(lists[nlists++] = argv[i] + 1, &dl, &ndl, &dlcap, &err)) return usage(xasprintf("--dlopen @%s", err));
                continue;
            }
            GROW(dl, ndl, dlcap);
            if (dlopen_arg(argv[i], &dl[ndl++], &err)) return usage(err);
        } else if (!strcmp(a, "--")) {
            while (++i < argc) exes[nexe++] = argv[i];
        } else if (a[0] == '-' && a[1]) return usage(xasprintf("unknown option '%s'", a));
        else exes[nexe++] = a;
    }
    /* contradictions, before any work */
    if (trace_cmd && (maps || pid)) return usage("--trace runs CMD; --pid and --maps read a process that exists: give one of them");
    if (trace_cmd && nexe) return usage("--trace analyses CMD: no EXECUTABLE besides it");
    if (bindings && (json || json_path || show_all || strict || copies || allow_path))
        return usage("--bindings prints bindings, not findings: no --json, --json-out, --info, --strict, --copies or --allow with it");
    if (sysroot && (trace_cmd || pid || maps))
        return usage("--sysroot reads another machine's files for a model: not with --trace, --pid or --maps");
    if (pid && nexe) return usage("--pid takes its executable from /proc/PID/exe: no EXECUTABLE besides it");
    if (maps && nexe > 1) return usage("--maps FILE takes at most one EXECUTABLE");
    if (pid && !(maps = maps_of_pid(pid, &pid_exe, &err))) return usage(err);
    if (json_path) {   /* never a FIFO or a device, never a file this run reads */
        const char *named[] = { allow_path, maps, pid_exe, trace_cmd && strchr(trace_cmd[0], '/') ? trace_cmd[0] : NULL };
        int bad = outfile_check(&jo, json_path, &err);
        for (int k = 0; !bad && k < 4; k++) bad = outfile_refuse_input(&jo, named[k], &err);
        for (int k = 0; !bad && k < nexe; k++) bad = outfile_refuse_input(&jo, exes[k], &err);
        for (int k = 0; !bad && k < nlists; k++) bad = outfile_refuse_input(&jo, lists[k], &err);
        for (int k = 0; !bad && k < ndl; k++) bad = outfile_refuse_input(&jo, dl[k].path, &err);
        if (bad) { fprintf(stderr, "symsplit: %s\n", err); return 2; }
    }
    elf_version(EV_CURRENT);
    if (ldcache_open(&err)) { fprintf(stderr, "symsplit: %s\n", err); return 2; }
    if (trace_cmd) {   /* run it: the loader's record gives the dlopens and the live bindings */
        if (trace_run(trace_cmd, &tr, &err)) { fprintf(stderr, "symsplit: %s\n", err); return 2; }
        struct dlopen_req *tdl = xcalloc(tr.nroots + 1, sizeof *tdl);
        for (int k = 0; k < tr.nroots; k++) {   /* the record's order, scope and deepbind; lazy from --dlopen */
            const char *b = strrchr(tr.roots[k].path, '/');
            tdl[k] = dlopen_as_given(tr.roots[k].path, b ? b + 1 : tr.roots[k].path, dl, ndl);
            tdl[k].kind = tr.roots[k].kind;
            tdl[k].ns = tr.roots[k].ns;   /* a dlmopen: modelled in its own namespace */
            tdl[k].deepbind |= tr.roots[k].deepbind;   /* its first scope its own (LD_DEBUG=scopes) */
        }
        if (WIFSIGNALED(tr.status)) fprintf(stderr, "symsplit: note: --trace: %s ran, killed by signal %d;", tr.exe, WTERMSIG(tr.status));
        else fprintf(stderr, "symsplit: note: --trace: %s ran, exit %d;", tr.exe, WEXITSTATUS(tr.status));
        fprintf(stderr, " %d module(s) it dlopened, in that order:", tr.nroots);
        for (int k = 0; k < tr.nroots; k++) {   /* a dlmopen's root marked as --pid marks its namespace's objects */
            if (tdl[k].ns) fprintf(stderr, " [namespace %d]", tdl[k].ns);
            fprintf(stderr, " %s%s%s", tdl[k].path, tdl[k].kind == SC_GLOBAL ? ":global" : ":local", tdl[k].deepbind ? ":deepbind" : "");
        }
        fprintf(stderr, "; %d binding(s) observed", tr.obs.nbinds);
        if (tr.nfailed) fprintf(stderr, "; %d dlopen(s) that loaded nothing, not modules:", tr.nfailed);
        for (int k = 0; k < tr.nfailed; k++) fprintf(stderr, " %s", tr.failed[k]);
        fprintf(stderr, "\n");
        exes[0] = tr.exe;
        nexe = 1;
        dl = tdl;
        ndl = tr.nroots;
        live = &tr;
    }
    if (pid && !(lv = live_open(pid, &err))) {   /* the process's own record, else what it mapped */
        fprintf(stderr, "symsplit: note: %s; modelled from its mapped files instead\n", err);
        free(err);
        err = NULL;
    }
    if (lv) { exes[0] = pid_exe; nexe = 1; }
    else if (maps) {   /* the process as mapped: its executable, its dlopened roots */
        const char *exe = pid_exe ? pid_exe : nexe ? exes[0] : NULL;
        struct dlopen_req *mdl;
        int n = maps_image(maps, &exe, dl, ndl, &mdl, &err);
        if (n < 0) { fprintf(stderr, "symsplit: %s\n", err); return 2; }
        fprintf(stderr, "symsplit: note: %s: %s and its NEEDED closure at start-up; %d module(s) taken as dlopens in "
                        "load (reverse address) order:", maps, exe, n);
        for (int k = 0; k < n; k++)
            fprintf(stderr, " %s%s", mdl[k].path, mdl[k].kind == SC_GLOBAL ? ":global" : ":local");
        fprintf(stderr, "%s\n", ndl ? " (those --dlopen names: in its order)" : "");
        /* a maps file says what was opened, not how: an RTLD_GLOBAL open
         * modelled RTLD_LOCAL hides every collision and capture it made */
        int unknown = 0;
        for (int k = 0; k < n; k++) unknown += mdl[k].assumed;
        if (unknown) {
            fprintf(stderr, "symsplit: note: %s holds no dlopen flags: %d dlopened module(s) of unknown flags modelled "
                            "RTLD_LOCAL (an RTLD_GLOBAL one's collisions and captures are then not seen):", maps, unknown);
            for (int k = 0; k < n; k++)
                if (mdl[k].assumed) fprintf(stderr, " %s", mdl[k].path);
            fprintf(stderr, "; --pid, --trace or --dlopen PATH:global can tell\n");
        }
        exes[0] = exe;
        nexe = 1;
        dl = mdl;
        ndl = n;
    }
    if (!nexe) return usage("no EXECUTABLE given");
    /* --json-out: the object is collected in memory and written aside, then renamed */
    FILE *json_out = json_path ? open_memstream(&jbuf, &jlen) : NULL;
    struct report *r = report_new(json, json_out, show_all);
    struct policy *pol = policy_new(allow);
    int errors = 0, images = 0;
    for (int e = 0; e < nexe; e++) {
        struct image im;
        if (lv ? live_image(&im, lv, dl, ndl, &err) : image_build(&im, exes[e], dl, ndl, &err)) {
            fprintf(stderr, "symsplit: %s\n", err);   /* one line, naming the file */
            free(err);
            err = NULL;
            errors++;
        } else {
            for (int i = 0; i < im.n; i++)   /* a library found by search is an input too */
                if (outfile_clash(&jo, im.mods[i].m->dev, im.mods[i].m->ino, im.mods[i].m->path, &err)) {
                    fprintf(stderr, "symsplit: %s\n", err);
                    return 2;
                }
            if (!images++) machine_note(stderr);   /* what this machine's objects leave unjudged */
            im.dlsyms = dlsyms;
            if (!lv) im.obs = live ? &live->obs : NULL;
            else live_describe(lv, &im, stderr);
            image_labels(&im);   /* before any row names a module */
            if (im.mods[0].m->is_static)
                fprintf(stderr, "symsplit: note: %s is statically linked: nothing is bound at run time\n", exes[e]);
            if (getenv("SYMSPLIT_DEBUG"))     /* the closure in load order, for checking against ldd */
                for (int i = 0; i < im.n; i++)
                    fprintf(stderr, "closure %s: %s => %s\n", exes[e], module_name(im.mods[i].m), im.mods[i].m->path);
            if (bindings) {   /* the lookups and their answers, no findings */
                struct bound *b;
                int nb = image_bindings(&im, &b);
                report_bindings(stdout, stderr, &im, b, nb);
                free(b);
                image_free(&im);
                module_cache_trim();
                continue;
            }
            report_fails(stderr, &im);
            if (im.nmissing) report_partial(r);
            /* the findings, then the policy, then the rows: one pass each */
            struct findings fs = { 0 };
            check_loadable(&fs, &im);
            struct analysis *an = analysis_new(&im);
            analyse_image(&fs, an);
            /* library copies: asked for, or a process with plugins (the
             * system sweep, one executable at a time, does not pay for it),
             * or one that died (its end is tied to the libraries loaded) */
            im.ran = live;
            if (copies || im.nlocals || (live && live->status)) find_copies(&fs, &im);
            find_death(&fs, &im);
            policy_grade(pol, &im, &fs);
            report_print(r, &im, &fs);
            findings_clear(&fs);
            /* latent captures: each RTLD_LOCAL dlopen assumed RTLD_GLOBAL in turn,
             * a what-if the model answers alone (what ran bound otherwise) */
            im.obs = NULL;
            im.ran = NULL;   /* what-ifs: the end belongs to what ran */
            if (im.nlocals && !allow) analyse_unpromoted(an);
            for (int k = 0; k < im.nlocals; k++) {
                /* another namespace cannot join this one's global scope (dlmopen refuses RTLD_GLOBAL) */
                if (image_in_global(&im, im.roots[k]) || im.mods[im.roots[k]].ns_scope) continue;
                int mark = image_promote(&im, k);
                fs.promoted = image_label(&im, im.roots[k]);
                /* the allowlist counts what it suppresses in every pass: every name */
                analyse_latent(&fs, an, k, allow != NULL);
                policy_grade(pol, &im, &fs);
                report_print(r, &im, &fs);
                findings_clear(&fs);
                fs.promoted = NULL;
                image_demote(&im, mark);
            }
            if (getenv("SYMSPLIT_DEBUG")) {
                int whole, part;
                analysis_passes(an, &whole, &part);
                fprintf(stderr, "latent passes %s: %d by the promoted names, %d whole\n", exes[e], part, whole);
                long p[4];
                analysis_patches(an, p);
                fprintf(stderr, "latent patches %s: %ld implicit, %ld listed (%ld lookups moved), %ld bindings looked at\n",
                        exes[e], p[0], p[1], p[2], p[3]);
            }
            analysis_free(an);
        }
        image_free(&im);
        module_cache_trim();
    }
    if (bindings) {
        int status = errors ? 2 : 0;
        if (stdout_close(&err)) { fprintf(stderr, "symsplit: %s\n", err); status = 2; }
        return status;
    }
    report_finish(r, images, errors, policy_suppressed(pol));   /* closes json_out: jbuf holds the object */
    int status = exit_status(report_counts(r), report_crossed(r), errors, strict);
    if (json_path && outfile_write(&jo, jbuf, jlen, &err)) {   /* a lost report is an error, one line */
        fprintf(stderr, "symsplit: %s\n", err);
        free(err);
        status = 2;
    }
    if (stdout_close(&err)) { fprintf(stderr, "symsplit: %s\n", err); status = 2; }
    free(jbuf);
    outfile_free(&jo);
    return status;
}

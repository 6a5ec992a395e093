"""symsplit_rows: the project's own scanner (tools/symsplit) on the process
survey/measure saved (`symsplit --json-out ... --host H --maps RUN/maps`), read and
set against the survey's fingerprint scan (RUN/copies), family by family and
module by module. Modules are matched by the name symsplit prints: the
object's DT_SONAME, else its file name. symsplit prints a library group only
when it finds two or more copies, so a family it knows but does not print
counts as "fewer than 2" (None), one it does not know as "-"."""
import json
import os

import elfinfo

VERDICTS = ('SPLIT', 'LATENT', 'COPY')
WORDS = ('agree', 'differ', 'scan-only', 'symsplit-only')


def families(path):
    """[(scan family or None, symsplit group or None)] from survey/symsplit-families."""
    out = []
    for n, line in enumerate(open(path), 1):
        if line.startswith('#') or not line.strip():
            continue
        c = [x.strip() for x in line.split('|')]
        if len(c) != 2 or not all(c):
            raise SystemExit(f'{path}:{n}: expected: scan family | symsplit group')
        out.append(tuple(None if x == '-' else x for x in c))
    return out


def load(run):
    """symsplit's record of RUN: exit status, row counts, LATENT rows, COPY
    rows per library group and per name; None when symsplit did not run.
    Read from the JSON's own fields (promoted, copies), never from its
    words."""
    if not os.path.exists(os.path.join(run, 'symsplit.status')):
        return None
    s = dict(status=int(open(os.path.join(run, 'symsplit.status')).read()), latent=[], groups={}, names={},
             counts=dict.fromkeys(VERDICTS, 0))
    try:
        doc = json.load(open(os.path.join(run, 'symsplit.json')))
    except (OSError, ValueError) as e:
        raise SystemExit(f'report: {run}: symsplit wrote no JSON to read (exit {s["status"]}): {e}')
    for f in doc.get('findings', []):
        v = f['verdict']
        if v not in VERDICTS:
            continue
        s['counts'][v] += 1
        if v == 'LATENT':
            s['latent'].append(dict(symbol=f['symbol'], sev=f['sev'], promoted=f.get('promoted', '-'),
                                    binder=f.get('binder', '-')))
        elif v == 'COPY':
            copies = f.get('copies')
            if not copies:
                raise SystemExit(f'report: {run}: symsplit\'s COPY row for {f["symbol"]} lists no copies')
            if 'kind' in copies[0]:      # a library group: module, kind, variant, version
                s['groups'][f['symbol']] = [(c['module'], c['kind'], c['variant'], c['version'] or '-') for c in copies]
            else:                        # one name: module, bound_by
                s['names'][f['symbol']] = [c['module'] for c in copies]
    return s


def module_names(run):
    """object path -> the name symsplit prints for it."""
    names = {}
    for line in open(os.path.join(run, 'objects')):
        p = line.strip()
        if p:
            names[p] = elfinfo.Elf(p).soname() or os.path.basename(p)
    return names


def compare(run, fams, ss):
    """One dict per family that either side reports in two or more copies:
    scan (count), symsplit (count, None: fewer than 2, '-': not in its
    table), word (agree: the same modules and variants; differ; scan-only:
    symsplit has no row; symsplit-only: the scan counts fewer than 2),
    agree (modules both name), symsplit_only, scan_only (module,
    variant) and variants ((module, scan's, symsplit's) where they differ)."""
    name = module_names(run)
    scan = {}
    for line in open(os.path.join(run, 'copies')):
        family, variant, path, _kind, _version = line.split()
        scan.setdefault(family, {})[name.get(path, os.path.basename(path))] = variant
    out = []
    for fam, group in fams:
        sc = scan.get(fam, {}) if fam else {}
        rows = ss['groups'].get(group) if group else None
        if len(sc) < 2 and rows is None:
            continue
        sy = {m: variant or group for m, _k, variant, _v in rows or []}
        diff = set(sc) ^ set(sy) or any(sc[m].lower() != sy[m].lower() for m in set(sc) & set(sy))
        word = 'scan-only' if rows is None else 'symsplit-only' if len(sc) < 2 else 'differ' if diff else 'agree'
        out.append(dict(family=fam or '-', group=group or '-', word=word, scan=len(sc),
                        symsplit=len(sy) if rows is not None else (None if group else '-'),
                        agree=sorted(set(sc) & set(sy)),
                        symsplit_only=sorted((m, sy[m]) for m in set(sy) - set(sc)),
                        scan_only=sorted((m, sc[m]) for m in set(sc) - set(sy)),
                        variants=sorted((m, sc[m], sy[m]) for m in set(sc) & set(sy) if sc[m].lower() != sy[m].lower())))
    return out


def count(c):
    return {None: '<2', '-': '-'}.get(c['symsplit'], str(c['symsplit']))


def mods(pairs):
    return ','.join(f'{m}({v.replace(" ", "_")})' for m, v in pairs) or '-'


def fact_lines(label, ss, cmp):
    """The stable facts: exit status, row counts, each LATENT row, each
    one-name COPY row, each family's agreement."""
    out = [f'{label} symsplit exit {ss["status"]}']
    out += [f'{label} symsplit {v} {ss["counts"][v]}' for v in VERDICTS]
    out += sorted(f'{label} symsplit latent {x["symbol"]} {x["sev"]} promoting {x["promoted"]}' for x in ss['latent'])
    out += [f'{label} symsplit name-copy {n} {len(m)} {",".join(sorted(m))}' for n, m in sorted(ss['names'].items())]
    words = [c['word'] for c in cmp]
    out.append(f'{label} scan-vs-symsplit families {len(cmp)} ' + ' '.join(f'{w} {words.count(w)}' for w in WORDS))
    for c in cmp:
        out.append(f'{label} scan-vs-symsplit {c["family"]} {c["word"]} scan {c["scan"]} symsplit {count(c)} agree {len(c["agree"])} '
                   f'symsplit-only {mods(c["symsplit_only"])} scan-only {mods(c["scan_only"])} '
                   f'variant-differs {",".join(f"{m}({a}/{b})" for m, a, b in c["variants"]) or "-"}')
    return out


def detail_lines(label, ss, cmp):
    out = [f'## {label}: symsplit on the saved maps (its table: symsplit in the run directory): exit {ss["status"]}; ' +
           ', '.join(f'{v} {ss["counts"][v]}' for v in VERDICTS)]
    for x in ss['latent']:
        out.append(f'  LATENT {x["sev"]} {x["symbol"]}: promoting {x["promoted"]} binds {x["binder"]}\'s reference to it')
    for n, m in sorted(ss['names'].items()):
        out.append(f'  COPY {n}: one name in {len(m)} live copies ({", ".join(m)}); the scan counts families, not names')
    out.append(f'## {label}: library copies, the scan against symsplit (modules: agree / symsplit only / scan only)')
    for c in cmp:
        fam = c['family'] if c['group'] in ('-', c['family']) or c['family'] == '-' else f'{c["family"]} ({c["group"]})'
        s = f'  {fam}: {c["word"]}: scan {c["scan"]}, symsplit {count(c)}'
        s += {'-': ' (no such group in its table)', None: ' (no COPY row)'}.get(c['symsplit'], '')
        s += f'; both name {len(c["agree"])}'
        if c['variants']:
            s += ' (' + '; '.join(f'{m}: scan {a}, symsplit {b}' for m, a, b in c['variants']) + ')'
        for what, pairs in (('symsplit only', c['symsplit_only']), ('scan only', c['scan_only'])):
            if pairs:
                s += f'; {what} ' + ', '.join(f'{m} ({v})' for m, v in pairs)
        out.append(s)
    if not cmp:
        out.append('  no family in two or more copies on either side')
    return out

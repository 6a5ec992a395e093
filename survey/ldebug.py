"""ldebug: read the loader's own record, LD_DEBUG=bindings output, as
(referencing object, symbol, defining object) triples."""
import os
import re

# "  PID:	binding file REF [NS] to DEF [NS]: normal symbol `NAME' [VERSION]"
LINE = re.compile(r'binding file (\S+) \[\d+\] to (\S+) \[\d+\]: \w+ symbol `([^\']+)\'(?: \[([^\]]*)\])?')


def _real(path, cache={}):
    """One spelling per file: the loader prints the path it was given
    ($ORIGIN/../x or a symlink); the executable stays as printed."""
    if '/' not in path:
        return path
    if path not in cache:
        cache[path] = os.path.realpath(path)
    return cache[path]


def bindings(path):
    """Every binding line of the file: (ref, name, definer, version)."""
    with open(path, errors='replace') as f:
        for line in f:
            m = LINE.search(line)
            if m:
                yield _real(m.group(1)), m.group(3), _real(m.group(2)), m.group(4) or ''


def definers(path):
    """name -> {definer: set of referencing objects}."""
    out = {}
    for ref, name, dfn, _ver in bindings(path):
        out.setdefault(name, {}).setdefault(dfn, set()).add(ref)
    return out


# LD_DEBUG=files,scopes lines (glibc 2.36):
#   file=NAME [NS];  needed by OBJ [NS]  |  dynamically loaded by OBJ [NS]
#   trying file=PATH
#   file=NAME [NS];  generating link map
#   object=OBJ [NS]  then  scope N: OBJ OBJ ...
#   add OBJ [NS] to global scope
_FILE = re.compile(r'\bfile=(\S+) \[(\d+)\];\s+(needed by|dynamically loaded by|generating link map)')
_TRYING = re.compile(r'\btrying file=(\S+)')
_OBJECT = re.compile(r'\bobject=(\S+) \[(\d+)\]')
_SCOPE = re.compile(r'^\s*\d+:\s+scope (\d+): (.*)$')
_GLOBAL = re.compile(r'\badd (\S+) \[(\d+)\] to global scope')


class Record:
    """The loader's whole record of one process (files, scopes, bindings),
    read in one pass. Paths are real paths (one spelling per file).
      main      the executable (the first object= line)
      modules   every object the loader mapped, in load order (main first;
                a dlopen that found nothing is not a module)
      initial   the global scope at start (main's scope 0)
      glob      every object in the global scope at the end
      opens     the dlopen record, in order: (path, 'local' | 'global') for
                each object a dlopen call loaded first (a root; 'global' when
                it joined the global scope as it loaded), (path, 'promote')
                for an object already loaded that a later RTLD_GLOBAL
                dlopen added to the global scope
      bindings  (ref, name, definer, version) of every binding line"""

    def __init__(self, path):
        self.main, self.modules, self.initial, self.glob = None, [], [], set()
        self.opens, self.bindings = [], []
        root = None          # the name a dlopen asked for, until it maps
        loaded_by_open = set()   # names mapped by the current dlopen
        at_start = True
        mapped = []          # names as the files lines give them, in load order
        named = {}           # a file name -> the object path the loader printed for it
        scope_of = None
        with open(path, errors='replace') as f:
            for line in f:
                m = LINE.search(line)
                if m:
                    self.bindings.append((m.group(1), m.group(3), m.group(2), m.group(4) or ''))
                    continue
                m = _FILE.search(line)
                if m and m.group(2) == '0':
                    name, what = m.group(1), m.group(3)
                    if what == 'dynamically loaded by':
                        root, at_start, loaded_by_open = name, False, set()
                    elif what == 'generating link map':
                        mapped.append(name)
                        loaded_by_open.add(name)
                        if root == name:
                            self.opens.append([name, 'local'])
                            root = None
                    continue
                m = _OBJECT.search(line)
                if m:
                    scope_of = m.group(1) if m.group(2) == '0' else None
                    if scope_of:
                        named.setdefault(os.path.basename(scope_of), scope_of)
                        named.setdefault(scope_of, scope_of)
                        if self.main is None:
                            self.main = scope_of
                    continue
                m = _SCOPE.match(line)
                if m:
                    if scope_of == self.main and m.group(1) == '0' and not self.initial:
                        self.initial = m.group(2).split()
                    continue
                m = _GLOBAL.search(line)
                if m and m.group(2) == '0':
                    p = m.group(1)
                    self.glob.add(p)
                    if self.opens and not at_start and named.get(self.opens[-1][0], self.opens[-1][0]) == p:
                        self.opens[-1][1] = 'global'
                    elif os.path.basename(p) not in loaded_by_open and p not in loaded_by_open:
                        self.opens.append([p, 'promote'])
        # A name the files lines gave (libfoo.so.1, or the path dlopen got)
        # is the object the scopes lines print under that name.
        def real(n):
            return _real(named.get(n, n))
        self.main = real(self.main) if self.main else None
        self.modules = [self.main] if self.main else []
        for n in mapped:
            p = real(n)
            if p not in self.modules:
                self.modules.append(p)
        self.initial = [real(n) for n in self.initial]
        self.glob = {real(n) for n in self.glob} | set(self.initial)
        self.opens = [(real(n), how) for n, how in self.opens]
        self.bindings = [(real(r), nm, real(d), v) for r, nm, d, v in self.bindings]

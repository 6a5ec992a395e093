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

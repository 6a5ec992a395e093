"""coload.py: the control. Debian's Python stack (numpy, scipy, sklearn)
in one process, each exercised a little, then /proc/self/maps copied.
Usage: python3 coload.py --maps FILE [--global PKG] PKG...
--global imports PKG first with RTLD_NOW|RTLD_GLOBAL as dlopen flags (what
the wheel survey's `import torch` first amounts to), the others after it
with Python's default (RTLD_NOW, local)."""
import os
import sys


def work_numpy():
    import numpy as np
    a = np.arange(16.0).reshape(4, 4) + np.eye(4)
    return f'det of 4x4 = {round(float(np.linalg.det(a)), 3)}'


def work_scipy():
    import numpy as np
    from scipy import fft, linalg, sparse, special
    lu = linalg.lu_factor(np.eye(3) * 2.0)
    s = sparse.identity(5, format='csr') @ np.ones(5)
    return f'lu pivots {list(lu[1])}, fft[0] {abs(fft.fft(np.ones(8))[0])}, sparse sum {s.sum()}, gamma(5) {special.gamma(5)}'


def work_sklearn():
    import numpy as np
    from sklearn.linear_model import LinearRegression
    x = np.arange(10.0).reshape(-1, 1)
    m = LinearRegression().fit(x, 3 * x.ravel() + 1)
    return f'fit slope {round(float(m.coef_[0]), 3)}'


def mapped():
    """The files mapped in this process now."""
    with open('/proc/self/maps') as f:
        return {c[5] for c in (line.split() for line in f) if len(c) > 5 and c[5].startswith('/')}


WORK = {'numpy': work_numpy, 'scipy': work_scipy, 'sklearn': work_sklearn}


def main(argv):
    maps, promote, pkgs = None, None, []
    while argv:
        a = argv.pop(0)
        if a in ('--maps', '--global') and argv:
            maps, promote = (argv.pop(0), promote) if a == '--maps' else (maps, argv.pop(0))
        elif a.startswith('-') or a not in WORK:
            sys.exit(f"coload.py: unknown argument '{a}' (packages: {' '.join(WORK)})")
        else:
            pkgs.append(a)
    if not maps:
        sys.exit('usage: coload.py --maps FILE [--global PKG] PKG...')
    if promote:
        default = sys.getdlopenflags()
        before = mapped()
        sys.setdlopenflags(os.RTLD_NOW | os.RTLD_GLOBAL)
        print(f'{promote}: {WORK[promote]()}')
        sys.setdlopenflags(default)
        # What joined the global scope: every file the promoted import mapped.
        for f in sorted(mapped() - before):
            print(f'promoted {f}')
        pkgs = [p for p in pkgs if p != promote]
    for p in pkgs:
        print(f'{p}: {WORK[p]()}')
    with open('/proc/self/maps') as src, open(maps, 'w') as dst:
        dst.write(src.read())


if __name__ == '__main__':
    main(sys.argv[1:])

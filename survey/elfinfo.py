"""elfinfo: the few ELF facts the survey reads, straight from the file
(ELF64 little-endian only: the survey is x86-64). No readelf parsing, so
that a 70 MB library with half a million symbols takes a second, not ten."""
import mmap
import struct

SHT_SYMTAB, SHT_RELA, SHT_DYNAMIC, SHT_DYNSYM = 2, 4, 6, 11
SHT_GNU_VERDEF, SHT_GNU_VERSYM = 0x6FFFFFFD, 0x6FFFFFFF
DT_SONAME, DT_SYMBOLIC, DT_FLAGS, DT_FLAGS_1 = 14, 16, 30, 0x6FFFFFFB
DF_SYMBOLIC = 0x2
STB_NAMES = {0: 'LOCAL', 1: 'GLOBAL', 2: 'WEAK', 10: 'UNIQUE'}
STT_FUNC, STT_OBJECT = 2, 1
STV_NAMES = {0: 'DEFAULT', 1: 'INTERNAL', 2: 'HIDDEN', 3: 'PROTECTED'}
# x86-64 relocation types whose symbol names a definition the loader binds.
R_X86_64_64, R_X86_64_COPY, R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT = 1, 5, 6, 7


class Sym:
    __slots__ = ('name', 'value', 'size', 'bind', 'type', 'vis', 'shndx')

    def __init__(self, name, value, size, info, other, shndx):
        self.name, self.value, self.size, self.shndx = name, value, size, shndx
        self.bind = STB_NAMES.get(info >> 4, str(info >> 4))
        self.type = info & 0xF
        self.vis = STV_NAMES[other & 3]

    @property
    def defined(self):
        return self.shndx != 0


class Elf:
    def __init__(self, path):
        self.path = path
        with open(path, 'rb') as f:
            self.data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        d = self.data
        if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
            raise ValueError(f'{path}: not an ELF64 little-endian file')
        self.etype = struct.unpack_from('<H', d, 16)[0]
        shoff, = struct.unpack_from('<Q', d, 0x28)
        shentsize, shnum = struct.unpack_from('<HH', d, 0x3A)
        self.sections = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
        self._syms = {}

    def _strtab(self, index):
        s = self.sections[index]
        return s[4], s[4] + s[5]

    def _name(self, strtab, off):
        start = strtab[0] + off
        return self.data[start:self.data.find(b'\0', start)].decode('utf-8', 'replace')

    def symbols(self, kind):
        """The symbols of .dynsym (kind SHT_DYNSYM) or .symtab (SHT_SYMTAB)."""
        if kind not in self._syms:
            out = []
            for s in self.sections:
                if s[1] != kind:
                    continue
                strtab = self._strtab(s[6])
                raw = self.data[s[4]:s[4] + s[5]]
                for name, info, other, shndx, value, size in struct.iter_unpack('<IBBHQQ', raw):
                    out.append(Sym(self._name(strtab, name), value, size, info, other, shndx))
            self._syms[kind] = out
        return self._syms[kind]

    def dynamic(self):
        """(tag, value) pairs of the dynamic section."""
        for s in self.sections:
            if s[1] == SHT_DYNAMIC:
                return [e for e in struct.iter_unpack('<qQ', self.data[s[4]:s[4] + s[5]]) if e[0] != 0]
        return []

    def soname(self):
        """DT_SONAME, or None: the name ld.so (and symsplit) knows a library by."""
        for s in self.sections:
            if s[1] == SHT_DYNAMIC:
                strtab = self._strtab(s[6])
                for tag, value in self.dynamic():
                    if tag == DT_SONAME:
                        return self._name(strtab, value)
        return None

    def dynversions(self):
        """The version each .dynsym entry is defined at ('' when none), in
        .dynsym order: .gnu.version indexes .gnu.version_d (a reference's
        version, from .gnu.version_r, is not needed: only definitions are
        asked)."""
        names, versym = {}, None
        for s in self.sections:
            if s[1] == SHT_GNU_VERDEF:
                strtab, off = self._strtab(s[6]), s[4]
                while True:
                    _ver, _flags, ndx, _cnt, _hash, aux, nxt = struct.unpack_from('<HHHHIII', self.data, off)
                    name, = struct.unpack_from('<I', self.data, off + aux)
                    names[ndx] = self._name(strtab, name)
                    if not nxt:
                        break
                    off += nxt
            elif s[1] == SHT_GNU_VERSYM:
                versym = s
        n = len(self.symbols(SHT_DYNSYM))
        if versym is None:
            return [''] * n
        idx = struct.unpack_from(f'<{n}H', self.data, versym[4])
        return [names.get(i & 0x7FFF, '') if (i & 0x7FFF) > 1 else '' for i in idx]

    def dynrelocs(self):
        """(type, dynsym) of every dynamic relocation that names a symbol."""
        dyn = self.symbols(SHT_DYNSYM)
        for s in self.sections:
            if s[1] != SHT_RELA or s[6] == 0 or self.sections[s[6]][1] != SHT_DYNSYM:
                continue
            for _off, info, _add in struct.iter_unpack('<QQq', self.data[s[4]:s[4] + s[5]]):
                if info >> 32:
                    yield info & 0xFFFFFFFF, dyn[info >> 32]


def is_elf(path):
    try:
        with open(path, 'rb') as f:
            return f.read(4) == b'\x7fELF'
    except OSError:
        return False

"""debian.py CASE [--pause FIFO]: one multi-library process built only from
Debian packages, doing a little real work. With --pause, once the work is
done and before the case's last step (the one that may abort), it prints
`paused <pid>` and waits until FIFO is written to: the harness looks at the
live process meanwhile (symsplit --pid, /proc/PID/maps). Cases:"""
import ctypes
import os
import sys


def gtk3(version='3.0'):
    import gi
    gi.require_version('Gtk', version)
    from gi.repository import Gtk
    return Gtk


def gtk3_gtk4(mode):
    """GTK 3 through python3-gi (GModule opens it RTLD_GLOBAL), then GTK 4 by
    ctypes (mode), then GTK 4's gtk_init_check."""
    def run():
        Gtk = gtk3()
        print(f'gtk {Gtk.get_major_version()}.{Gtk.get_minor_version()} through gi')
        g4 = ctypes.CDLL('libgtk-4.so.1', mode=mode)
        g4.gtk_get_major_version.restype = ctypes.c_uint
        print(f'gtk {g4.gtk_get_major_version()} by ctypes')
        yield
        print(f'gtk 4 gtk_init_check: {g4.gtk_init_check()}')
    return run


def gtk4_gstgtk3():
    """A GTK 4 program (gi, Gtk 4.0) that makes GStreamer's GTK 3 video sink
    (gtksink, libgstgtk.so from gstreamer1.0-gtk3)."""
    import gi
    gi.require_version('Gtk', '4.0')
    gi.require_version('Gst', '1.0')
    from gi.repository import Gst, Gtk
    print(f'gtk {Gtk.get_major_version()}.{Gtk.get_minor_version()} through gi')
    Gst.init(None)
    sink = Gst.ElementFactory.make('gtksink', None)
    print(f'gtksink: {"made" if sink else "not made"}')
    yield
    if sink:
        print(f'gtksink widget: {type(sink.props.widget).__name__}')


def numpy_scipy():
    """numpy and scipy: determinant, LU, FFT, a sparse product, gamma."""
    import numpy as np
    import scipy.fft
    import scipy.linalg
    import scipy.sparse
    import scipy.special
    a = np.arange(16, dtype=float).reshape(4, 4) + np.eye(4)
    lu = scipy.linalg.lu_factor(a)
    f = scipy.fft.fft(np.ones(8))
    s = scipy.sparse.identity(4, format='csr') @ a
    print(f'det {np.linalg.det(a):.1f}, lu {lu[0].shape}, fft {f[0].real:.0f}, sparse {s.shape}, gamma {scipy.special.gamma(5):.0f}')
    yield


def numpy_only():
    """numpy alone: a determinant and an FFT."""
    import numpy as np
    a = np.arange(16, dtype=float).reshape(4, 4) + np.eye(4)
    print(f'det {np.linalg.det(a):.1f}, fft {np.fft.fft(np.ones(8))[0].real:.0f}')
    yield


def lxml_xslt():
    """python3-lxml on Debian's libxml2 and libxslt: parse, XPath, XSLT."""
    from lxml import etree
    doc = etree.fromstring(b'<r><i n="1"/><i n="2"/></r>')
    xsl = etree.XSLT(etree.fromstring(
        b'<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
        b'<xsl:template match="/"><s><xsl:value-of select="sum(//i/@n)"/></s></xsl:template></xsl:stylesheet>'))
    print(f'xpath {len(doc.xpath("//i"))} items, xslt sum {str(xsl(doc)).split(">")[-2].split("<")[0]}')
    yield


def gst_pipelines(*pipelines):
    """GStreamer (python3-gi) runs each pipeline to its end and prints how it
    ended (eos, error, timeout)."""
    import gi
    gi.require_version('Gst', '1.0')
    from gi.repository import Gst
    Gst.init(None)
    for desc in pipelines:
        p = Gst.parse_launch(desc)
        p.set_state(Gst.State.PLAYING)
        msg = p.get_bus().timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
        p.set_state(Gst.State.NULL)
        print(f'{desc.split()[0]}: {msg.type.first_value_nick if msg else "timeout"}')
    yield


def gst_plugins():
    """GStreamer with several plugins (core, base, good): video to JPEG and
    back to PNG, audio to Vorbis in Ogg."""
    yield from gst_pipelines('videotestsrc num-buffers=3 ! videoconvert ! videoscale ! video/x-raw,width=32,height=32 ! jpegenc ! jpegdec ! videoconvert ! pngenc ! fakesink',
                             'audiotestsrc num-buffers=3 ! audioconvert ! vorbisenc ! oggmux ! fakesink')


def imagemagick():
    """ImageMagick 6 through python3-wand (ctypes): one image written by
    several coders (modules ImageMagick loads at run time)."""
    from wand.image import Image
    with Image(width=16, height=16, background='#c04000') as img:
        sizes = []
        for fmt in ('png', 'jpeg', 'tiff', 'webp', 'gif'):
            with img.clone() as c:
                c.format = fmt
                sizes.append(f'{fmt} {len(c.make_blob())}')
    print('wrote ' + ', '.join(sizes))
    yield


def pil_mix():
    """python3-pil, numpy, lxml and pycairo in one process: an image drawn
    by cairo, converted by PIL through numpy, described in XML."""
    import cairo
    import numpy as np
    from lxml import etree
    from PIL import Image
    surf = cairo.ImageSurface(cairo.FORMAT_ARGB32, 16, 16)
    ctx = cairo.Context(surf)
    ctx.set_source_rgb(0.8, 0.2, 0)
    ctx.paint()
    img = Image.frombuffer('RGBA', (16, 16), bytes(surf.get_data()), 'raw', 'BGRA', 0, 1)
    arr = np.asarray(img.convert('L'))
    doc = etree.fromstring(f'<img w="{img.width}" mean="{arr.mean():.0f}"/>'.encode())
    print(f'cairo {cairo.cairo_version_string()}, pil {img.size}, mean {doc.get("mean")}')
    yield


def crypto_openssl():
    """python3-cryptography (Rust, on libssl) beside python3-openssl and the
    standard library's _ssl and _hashlib: a key, a signature, a context."""
    import hashlib
    import ssl
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from OpenSSL import crypto
    key = ec.generate_private_key(ec.SECP256R1())
    sig = key.sign(b'data', ec.ECDSA(hashes.SHA256()))
    pk = crypto.PKey()
    pk.generate_key(crypto.TYPE_RSA, 1024)
    ctx = ssl.create_default_context()
    print(f'ec sig {len(sig) > 0}, rsa {pk.bits()}, sha256 {hashlib.sha256(b"a").hexdigest()[:8]}, ssl {ssl.OPENSSL_VERSION_INFO[0]} {ctx.protocol.name}')
    yield


def gst_bad_ugly():
    """GStreamer with plugins from bad and ugly: x264 to MPEG-TS, a
    compositor, audio to MP3 (lame) and back."""
    yield from gst_pipelines('videotestsrc num-buffers=3 ! video/x-raw,width=32,height=32 ! compositor ! videoconvert ! x264enc ! mpegtsmux ! fakesink',
                             'audiotestsrc num-buffers=3 ! audioconvert ! lamemp3enc ! mpegaudioparse ! fakesink')


def gtk2_gtk3(mode):
    """GTK 2 by ctypes (mode), then GTK 3 through python3-gi (GModule:
    RTLD_GLOBAL) and its gtk_init_check, then GTK 2's: GTK 3 looks for
    GTK 2's names when it starts."""
    def run():
        g2 = ctypes.CDLL('libgtk-x11-2.0.so.0', mode=mode)
        print(f'gtk 2 by ctypes ({"RTLD_GLOBAL" if mode == ctypes.RTLD_GLOBAL else "RTLD_LOCAL"})', flush=True)
        Gtk = gtk3()
        print(f'gtk {Gtk.get_major_version()}.{Gtk.get_minor_version()} through gi, gtk_init_check: {Gtk.init_check([])[0]}', flush=True)
        yield
        print(f'gtk 2 gtk_init_check: {g2.gtk_init_check(None, None)}', flush=True)
    return run


def soup(first, second):
    """libsoup 2.4 and libsoup 3.0 (two majors of one library family, both
    on one GLib and one GObject type registry) by ctypes, each (major,
    mode) in order; then one SoupSession from each. Both majors look for the
    other's names in the global scope in their constructors and stop the
    process (g_error); loaded RTLD_LOCAL, the second major's types are
    already in the registry under the first one's names."""
    libs = {2: 'libsoup-2.4.so.1', 3: 'libsoup-3.0.so.0'}

    def run():
        loaded = []
        for major, mode in (first, second):
            lib = ctypes.CDLL(libs[major], mode=mode)
            lib.soup_session_new.restype = ctypes.c_void_p
            print(f'libsoup {major} loaded {"RTLD_GLOBAL" if mode == ctypes.RTLD_GLOBAL else "RTLD_LOCAL"}', flush=True)
            loaded.append((major, lib))
        yield
        for major, lib in loaded:
            session = lib.soup_session_new()
            print(f'libsoup {major} session: {"made" if session else "NULL"}', flush=True)
            if not session:
                sys.exit(f'libsoup {major}: soup_session_new returned NULL')
    return run


def allocator_work():
    """A little work that allocates: JSON, zlib, a dict of strings."""
    import json
    import zlib
    data = json.dumps({str(i): 'x' * (i % 64) for i in range(20000)}).encode()
    print(f'json {len(data)} bytes, zlib {len(zlib.compress(data))}', flush=True)


def preload_alloc():
    """Run under LD_PRELOAD of another malloc (jemalloc, tcmalloc, mimalloc:
    the harness sets it): work that allocates."""
    allocator_work()
    yield


def preload_alloc_pvalloc():
    """The same, then pvalloc, a name glibc defines and jemalloc does not,
    found in the global scope (libc's), and free (the preloaded one's)."""
    allocator_work()
    libc = ctypes.CDLL(None)
    libc.pvalloc.restype = ctypes.c_void_p
    yield
    p = libc.pvalloc(100)
    print(f'pvalloc: {p:#x}', flush=True)
    libc.free(ctypes.c_void_p(p))
    print('free: done', flush=True)


def readline_history():
    """The standard library's readline module (built on GNU readline) with
    its history: two lines added, then the history's length read back
    (under LD_PRELOAD of libedit's readline interface, set by the harness)."""
    import readline
    print(f'readline: {readline._READLINE_LIBRARY_VERSION}', flush=True)
    readline.add_history('one')
    readline.add_history('two')
    yield
    n = readline.get_current_history_length()
    print(f'history: {n} line(s), the last {readline.get_history_item(n)!r}', flush=True)
    if n != 2:
        sys.exit(f'readline: 2 lines added, the history holds {n}')


G, L = ctypes.RTLD_GLOBAL, ctypes.RTLD_LOCAL
CASES = {
    'gtk3-gtk4': gtk3_gtk4(ctypes.RTLD_LOCAL),
    'gtk3-gtk4-global': gtk3_gtk4(ctypes.RTLD_GLOBAL),
    'gtk4-gstgtk3': gtk4_gstgtk3,
    'numpy-scipy': numpy_scipy,
    'numpy': numpy_only,
    'lxml': lxml_xslt,
    'gst-plugins': gst_plugins,
    'imagemagick': imagemagick,
    'pil-mix': pil_mix,
    'crypto-openssl': crypto_openssl,
    'gst-bad-ugly': gst_bad_ugly,
    'gtk2-gtk3': gtk2_gtk3(G),
    'gtk2-local-gtk3': gtk2_gtk3(L),
    'soup2-soup3': soup((2, G), (3, L)),
    'soup3-soup2': soup((3, G), (2, L)),
    'soup2-soup3-local': soup((2, L), (3, L)),
    'soup3-soup2-local': soup((3, L), (2, L)),
    'soup2-local-soup3-global': soup((2, L), (3, G)),
    'soup3-local-soup2-global': soup((3, L), (2, G)),
    'alloc': preload_alloc,
    'alloc-pvalloc': preload_alloc_pvalloc,
    'readline': readline_history,
}


def main(argv):
    if len(argv) not in (1, 3) or argv[0] not in CASES or (len(argv) == 3 and argv[1] != '--pause'):
        sys.exit(f'usage: debian.py CASE [--pause FIFO]; cases: {" ".join(CASES)}')
    steps = CASES[argv[0]]()
    next(steps)                       # the work
    sys.stdout.flush()
    if len(argv) == 3:
        print(f'paused {os.getpid()}', flush=True)
        with open(argv[2]) as f:      # blocks until the harness writes
            f.read()
    for _ in steps:                   # the last step, if the case has one
        pass
    sys.stdout.flush()


if __name__ == '__main__':
    main(sys.argv[1:])

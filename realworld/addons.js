'use strict';
// addons.js: the corpus's npm addons beyond the survey's table
// (survey/coload.js --more realworld/addons.js). Each: what to require and
// one small piece of real work through the native code, returning a line
// that says what was done. `need` resolves in the install directory;
// `scratch()` is a private directory under TMPDIR.
const fs = require('fs');
const path = require('path');

module.exports = (need, scratch) => ({
	bufferutil: async () => {
		const { mask } = need('bufferutil');
		const out = Buffer.alloc(4);
		mask(Buffer.from('abcd'), Buffer.from([1, 2, 3, 4]), out, 0, 4);
		return `masked 4 bytes: ${out.toString('hex')}`;
	},
	'utf-8-validate': async () => `valid utf-8: ${need('utf-8-validate')(Buffer.from('h\u00e9llo'))}`,
	'parcel-watcher': async () => {
		const w = need('@parcel/watcher');
		const dir = path.join(scratch(), 'watched');
		fs.mkdirSync(dir);
		const snap = path.join(scratch(), 'snapshot');
		await w.writeSnapshot(dir, snap);
		fs.writeFileSync(path.join(dir, 'new'), 'x');
		const ev = await w.getEventsSince(dir, snap);
		return `events since snapshot: ${ev.length}`;
	},
	rollup: async () => {
		const ast = need('rollup/parseAst').parseAst('let x = 1 + 2');
		return `parsed: ${ast.body[0].type}`;
	},
	lightningcss: async () => {
		const { transform } = need('lightningcss');
		const r = transform({ filename: 'a.css', code: Buffer.from('.a { color: #ff0000 }'), minify: true });
		return `minified css: ${r.code}`;
	},
	bcrypt: async () => `bcrypt hash: ${need('bcrypt').hashSync('split', 4).slice(0, 7)}`,
	argon2: async () => `argon2 hash: ${(await need('argon2').hash('split', { timeCost: 2, memoryCost: 1024 })).split('$')[1]}`,
	'node-rs-argon2': async () => `@node-rs/argon2 hash: ${need('@node-rs/argon2').hashSync('split', { timeCost: 2, memoryCost: 1024 }).split('$')[1]}`,
	xxhash: async () => `xxh64: ${need('@node-rs/xxhash').xxh64('split').toString(16)}`,
	snappy: async () => {
		const s = need('snappy');
		return `snappy round trip: ${s.uncompressSync(s.compressSync('split split split'), { asBuffer: false })}`;
	},
	koffi: async () => {
		const koffi = need('koffi');
		const getpid = koffi.load('libc.so.6').func('int getpid()');
		return `koffi getpid() == pid: ${getpid() === process.pid}`;
	},
	leveldown: async () => {
		const db = need('leveldown')(path.join(scratch(), 'leveldown'));
		const p = (f) => new Promise((res, rej) => f((e, v) => (e ? rej(e) : res(v))));
		await p((cb) => db.open(cb));
		await p((cb) => db.put('k', 'v2', cb));
		const v = await p((cb) => db.get('k', { asBuffer: false }, cb));
		await p((cb) => db.close(cb));
		return `leveldown put/get k=${v}`;
	},
	pprof: async () => {
		const { heap } = need('@datadog/pprof');
		heap.start(128 * 1024, 64);
		const prof = heap.profile();
		heap.stop();
		return `heap profile: ${prof.sample.length >= 0 ? 'taken' : '?'}`;
	},
	usb: async () => {
		// libusb answers even where the machine has no USB bus (its error is the work done)
		try { return `usb devices: ${(await need('usb').webusb.getDevices()).length}`; } catch (e) { return `usb: libusb says ${e.message.split(':').slice(-1)[0].trim()}`; }
	},
	serialport: async () => {
		// list() asks udevadm (not the addon); open() is native: /dev/null is no tty,
		// and the addon's open refuses it (an OS error: the work done). A binding
		// without its own open ("Method not implemented") is not serialport's
		// addon (its init bound another's): a failure, not an answer.
		const { autoDetect } = need('@serialport/bindings-cpp');
		try { await autoDetect().open({ path: '/dev/null', baudRate: 9600 }); return 'serial open /dev/null: opened'; } catch (e) {
			if (/Method not implemented/.test(e.message)) throw e;
			return `serial open /dev/null: ${e.message.split(',')[0]}`;
		}
	},
	'tailwind-oxide': async () => {
		const { Scanner } = need('@tailwindcss/oxide');
		const dir = path.join(scratch(), 'tw');
		fs.mkdirSync(dir);
		fs.writeFileSync(path.join(dir, 'a.html'), '<div class="flex p-4"></div>');
		const found = new Scanner({ sources: [{ base: dir, pattern: '**/*', negated: false }] }).scan();
		return `tailwind candidates: ${found.includes('flex')}`;
	},
	'unrs-resolver': async () => {
		const { ResolverFactory } = need('unrs-resolver');
		const r = new ResolverFactory({}).sync(__dirname, './addons.js');
		return `resolved: ${path.basename(r.path || String(r.error))}`;
	},
	resvg: async () => {
		const { Resvg } = need('@resvg/resvg-js');
		const png = new Resvg('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="red"/></svg>').render().asPng();
		return `svg to png: ${png.subarray(1, 4)}`;
	},
	'msgpackr-extract': async () => `msgpackr-extract: ${typeof need('msgpackr-extract').extractStrings}`,
});

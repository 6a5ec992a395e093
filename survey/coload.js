'use strict';
// coload.js: load npm native addons into one node process, exercise each a
// little, then copy /proc/self/maps. Usage:
//   node coload.js --prefix DIR --maps FILE [--global ADDON] [--more FILE]
//                  [--pause FIFO] [--keep-going] ADDON...
// DIR holds node_modules; ADDON is a name of the table below. --global
// loads that addon first, every object it dlopens RTLD_NOW|RTLD_GLOBAL: the
// promotion an `import torch` first makes in Python. --more FILE adds the
// addons of another table (a module exporting (need, scratch) => ({name:
// work})): realworld/addons.js. --pause FIFO: once every addon did its work
// and the maps are written, print `paused <pid>` and wait until FIFO is
// written to (a harness looks at the live process meanwhile). --keep-going:
// an addon that throws is reported (`ADDON: failed: message`) and the rest
// still load; the exit status is then 3, after the pause.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { createRequire } = require('module');

function die(msg) { process.stderr.write(`coload: ${msg}\n`); process.exit(2); }
const args = process.argv.slice(2);
const opt = { addons: [] };
while (args.length) {
	const a = args.shift();
	if (a === '--prefix' || a === '--maps' || a === '--global' || a === '--more' || a === '--pause') {
		if (!args.length) die(`${a} needs a value`);
		opt[a.slice(2)] = args.shift();
	} else if (a === '--keep-going') opt.keepGoing = true;
	else if (a.startsWith('-')) die(`unknown option '${a}'`);
	else opt.addons.push(a);
}
if (!opt.prefix || !opt.maps) die('usage: coload.js --prefix DIR --maps FILE [--global ADDON] [--more FILE] [--pause FIFO] [--keep-going] ADDON...');
if (!fs.existsSync(path.join(opt.prefix, 'node_modules'))) die(`no node_modules under '${opt.prefix}' (run make survey)`);
const need = createRequire(path.join(path.resolve(opt.prefix), 'package.json'));
let scratch; // made once the arguments are known good (under TMPDIR)

// A one-node ONNX model (Z = X + Y over float[3]), encoded here: no model file.
function onnxAddModel() {
	const varint = (n) => { const b = []; do { let x = n & 0x7f; n >>>= 7; if (n) x |= 0x80; b.push(x); } while (n); return b; };
	const field = (no, bytes) => [...varint((no << 3) | 2), ...varint(bytes.length), ...bytes];
	const num = (no, n) => [...varint(no << 3), ...varint(n)];
	const str = (no, s) => field(no, [...Buffer.from(s)]);
	const tensor = (name) => [...str(1, name), ...field(2, field(1, [...num(1, 1), ...field(2, field(1, num(1, 3)))]))];
	const node = [...str(1, 'X'), ...str(1, 'Y'), ...str(2, 'Z'), ...str(4, 'Add')];
	const graph = [...field(1, node), ...str(2, 'add'), ...field(11, tensor('X')), ...field(11, tensor('Y')), ...field(12, tensor('Z'))];
	return Uint8Array.from([...num(1, 7), ...field(7, graph), ...field(8, [...str(1, ''), ...num(2, 13)])]);
}

// Each addon: what to require and a small piece of real work, returning a
// line that says what was done (the work is the point, not the value).
const ADDONS = {
	sharp: async () => {
		const sharp = need('sharp');
		const img = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c04000' } })
			.resize(16, 16).webp().toBuffer({ resolveWithObject: true });
		return `resized 64x64 to ${img.info.width}x${img.info.height} ${img.info.format}`;
	},
	canvas: async () => {
		const { createCanvas } = need('@napi-rs/canvas');
		const c = createCanvas(64, 32), ctx = c.getContext('2d');
		ctx.fillStyle = '#204080'; ctx.fillRect(0, 0, 64, 32);
		ctx.fillStyle = '#fff'; ctx.font = '12px sans-serif'; ctx.fillText('split', 4, 20);
		const png = c.toBuffer('image/png');
		return `drew 64x32, png ${png.subarray(1, 4)}`;
	},
	onnxruntime: async () => {
		const ort = need('onnxruntime-node');
		const s = await ort.InferenceSession.create(onnxAddModel());
		const t = (v) => new ort.Tensor('float32', Float32Array.from(v), [3]);
		const r = await s.run({ X: t([1, 2, 3]), Y: t([10, 20, 30]) });
		return `Add model in code: [${Array.from(r.Z.data)}]`;
	},
	duckdb: async () => {
		const duckdb = need('@duckdb/node-bindings');
		const db = await duckdb.open(), conn = await duckdb.connect(db);
		const res = await duckdb.query(conn, 'SELECT sum(i)::INTEGER FROM range(10) t(i)');
		const chunk = await duckdb.fetch_chunk(res);
		const v = new Int32Array(duckdb.vector_get_data(duckdb.data_chunk_get_vector(chunk, 0), 4).slice().buffer)[0];
		duckdb.disconnect_sync?.(conn); duckdb.close_sync?.(db);
		return `query sum(range(10)) = ${v}`;
	},
	wrtc: async () => {
		const { RTCPeerConnection } = need('@roamhq/wrtc');
		const pc = new RTCPeerConnection();
		pc.createDataChannel('probe');
		const offer = await pc.createOffer();
		pc.close();
		return `offer ${offer.type}, sdp ${offer.sdp.startsWith('v=0') ? 'v=0' : '?'}`;
	},
	'classic-level': async () => {
		const { ClassicLevel } = need('classic-level');
		const db = new ClassicLevel(path.join(scratch, 'level'));
		await db.put('k', 'v1'); const v = await db.get('k'); await db.close();
		return `leveldb put/get k=${v}`;
	},
	'sodium-native': async () => {
		const sodium = need('sodium-native');
		const out = Buffer.alloc(32);
		sodium.crypto_generichash(out, Buffer.from('split'));
		return `blake2b digest ${out.length} bytes`;
	},
	image: async () => {
		const { Transformer } = need('@napi-rs/image');
		const rgba = Buffer.alloc(16 * 16 * 4, 0x80);
		const webp = await Transformer.fromRgbaPixels(rgba, 16, 16).resize(8).webp();
		return `rgba 16x16 resized to webp ${webp.subarray(8, 12)}`;
	},
	lmdb: async () => {
		const { open } = need('lmdb');
		const db = open({ path: path.join(scratch, 'lmdb') });
		await db.put('k', { n: 42 }); const v = db.get('k'); await db.close();
		return `lmdb put/get k.n=${v.n}`;
	},
};

// The files mapped in this process now.
function mapped() {
	return new Set(fs.readFileSync('/proc/self/maps', 'utf8').split('\n').map((l) => l.split(/\s+/)[5]).filter((f) => f && f.startsWith('/')));
}

async function main() {
	if (opt.more) Object.assign(ADDONS, require(path.resolve(opt.more))(need, () => scratch));
	for (const a of opt.addons) if (!ADDONS[a]) die(`unknown addon '${a}' (known: ${Object.keys(ADDONS).join(' ')})`);
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'coload-'));
	let order = opt.addons;
	if (opt.global) {
		// Every object the promoted addon's package dlopens is opened
		// RTLD_NOW|RTLD_GLOBAL (its dependencies join the global scope with it),
		// and that addon loads first; the others follow as usual.
		if (!ADDONS[opt.global]) die(`unknown addon '${opt.global}'`);
		const c = os.constants.dlopen, dlopen = process.dlopen;
		let promoting = true;
		process.dlopen = function (module, file, flags) {
			if (!promoting) return flags === undefined ? dlopen.call(process, module, file) : dlopen.call(process, module, file, flags);
			return dlopen.call(process, module, file, c.RTLD_NOW | c.RTLD_GLOBAL);
		};
		const before = mapped();
		console.log(`${opt.global}: ${await ADDONS[opt.global]()}`);
		promoting = false;
		// What joined the global scope: every file the promoted load mapped.
		for (const f of mapped()) if (!before.has(f)) console.log(`promoted ${f}`);
		order = opt.addons.filter((a) => a !== opt.global);
	}
	let failed = 0;
	for (const a of order) {
		if (!opt.keepGoing) { console.log(`${a}: ${await ADDONS[a]()}`); continue; }
		try { console.log(`${a}: ${await ADDONS[a]()}`); } catch (e) { failed++; console.log(`${a}: failed: ${String(e.message || e).split('\n')[0]}`); }
	}
	fs.writeFileSync(opt.maps, fs.readFileSync('/proc/self/maps'));
	fs.rmSync(scratch, { recursive: true, force: true });
	if (opt.pause) {
		console.log(`paused ${process.pid}`);
		fs.readFileSync(opt.pause); // blocks until the harness writes and closes it
	}
	if (failed) process.exitCode = 3;
}
main().catch((e) => { if (scratch) fs.rmSync(scratch, { recursive: true, force: true }); die(e.stack || String(e)); });

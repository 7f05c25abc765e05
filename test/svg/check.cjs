// Judges prof's pictures as a person sees them: flame graphs, flame charts
// and sprof's plots. Each SVG is opened in headless Chromium (Debian's,
// through playwright-core), screenshot, and read back from the page.
//
//   node check.cjs frames OUTDIR FILE.svg...
//     For each FILE.svg, writes OUTDIR/NAME.png (the screenshot) and
//     OUTDIR/NAME.tsv: one line per box as the page lays it out: depth,
//     name (from the <title>), count (its data-count), x and width (from the rect's box on
//     the screen, to 0.1 px), first sample and length (charts; else 0).
//     Prints "NAME ok" when the page ran its script without errors and the
//     screenshot shows the boxes: at least half the pixels of the drawn
//     boxes carry their fills (labels cover the rest); else "NAME FAIL why".
//
//   node check.cjs plot OUTDIR FILE.svg...
//     For each of sprof's plots (-t sprofplot): OUTDIR/NAME.png, the
//     screenshot, and OUTDIR/NAME.tsv, one line per mark: panel, element,
//     title, and x, y, width, height on the page. Prints "NAME ok" when
//     every panel with marks shows ink in the screenshot and every mark
//     sits where the panel's axes, read off their tick labels, put the
//     values its title gives (within a pixel); bars are sorted, largest
//     left. Else "NAME FAIL why".
//
//   node check.cjs lanes OUTDIR FILE.svg...
//     For each flame chart in time, OUTDIR/NAME.png (the screenshot) and
//     OUTDIR/NAME.lanes: "axis SECONDS", the time at the right end of the
//     boxes as the axis's tick labels and places on the page say it
//     (the two ticks farthest apart give the scale); "zoom RAN SPAN": a
//     box's time as its title says it, and the time its zoom's axis spans,
//     in seconds (the widest box below the root of the second lane, else
//     the first); then per lane, in the
//     page's order, "lane NAME<TAB>ROOT<TAB>SUM": its root's name, its
//     root's samples (data-len) and the sum of its depth-1 boxes' samples
//     (depths counted from the lane's root). Prints "NAME ok" as frames.
//
//   node check.cjs interact FILE.svg REGEX MATCHED [SCREENSHOT.png]
//     Hovers, clicks, searches and reopens the page from its URL, printing
//     "ok WHAT" or "FAIL WHAT: why" per check. MATCHED is what the search
//     for REGEX must report ("Matched: 12.34%"). The screenshot is taken
//     zoomed and searched.
//
// Needs playwright-core (NODE_PATH) and Chromium at $CHROMIUM or
// /usr/bin/chromium. Serves the files on 127.0.0.1 only.
'use strict';
const chromium = require('../speedscope/chromium.cjs');
const { within: inTime } = chromium;
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

function serve(files) {
	const byName = new Map(files.map((f) => ['/' + path.basename(f), f]));
	const server = http.createServer((req, res) => {
		const file = byName.get(decodeURIComponent(req.url.split('?')[0]));
		if (!file) { res.writeHead(404); res.end(); return; }
		res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
		res.end(fs.readFileSync(file));
	});
	return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

// Loads a page at its own size once `ready` holds in it (by default: flame.js has read the boxes).
async function load(page, url, ready) {
	page.errors = [];
	page.on('pageerror', (e) => page.errors.push(String(e)));
	await page.goto(url);
	await page.waitForFunction(ready || (() => typeof boxes !== 'undefined' && boxes.length > 0), null,
		{ timeout: 20000 });
	const size = await page.evaluate(() => [document.documentElement.getAttribute('width'),
		document.documentElement.getAttribute('height')].map(Number));
	await page.setViewportSize({ width: size[0], height: size[1] });
	return page;
}

const newPage = (browser) => browser.newPage({ viewport: { width: 1600, height: 1000 } });

async function open(browser, url, ready) {
	return load(await newPage(browser), url, ready);
}

// Judges each file on a page of its own, within the limit (the page is
// closed when it passes, whatever it is still doing): JUDGE(page, file,
// name) says "NAME ok" or "NAME FAIL why".
async function eachWithin(browser, files, judge) {
	for (const file of files) {
		const name = path.basename(file, '.svg');
		const page = await newPage(browser);
		try {
			await inTime(name, judge(page, file, name));
		} catch (e) {
			console.log(`${name} FAIL ${String(e).split('\n')[0]}`);
		}
		await page.close();
	}
}

// Every box as laid out: what a reader of the page gets.
function readBoxes(page) {
	return page.evaluate(() => {
		const gs = Array.from(document.querySelectorAll('#frames > g'));
		const left = document.documentElement.getBoundingClientRect().left;
		const rootY = parseFloat(gs[0].querySelector('rect').getAttribute('y'));
		return gs.map((g) => {
			const rect = g.querySelector('rect'), title = g.querySelector('title').textContent;
			const cut = title.lastIndexOf(' ('), box = rect.getBoundingClientRect();
			return {
				depth: Math.round(Math.abs(parseFloat(rect.getAttribute('y')) - rootY) / 16),
				name: title.slice(0, cut), title: title,
				count: g.getAttribute('data-count'),
				x: (box.left - left).toFixed(1), width: box.width.toFixed(1),
				fill: rect.getAttribute('fill'), shown: getComputedStyle(g).display !== 'none',
				cls: g.getAttribute('class') || '', rx: rect.getAttribute('x'), rw: rect.getAttribute('width'),
				first: g.getAttribute('data-first') || '0', length: g.getAttribute('data-len') || '0',
			};
		});
	});
}

// The share of the drawn boxes' area that the screenshot shows in their fills.
async function fillShown(page, png, boxes) {
	const want = new Set(boxes.map((b) => b.fill));
	const counted = await page.evaluate(async ([data, fills]) => {
		const img = await createImageBitmap(await (await fetch('data:image/png;base64,' + data)).blob());
		const ctx = new OffscreenCanvas(img.width, img.height).getContext('2d');
		ctx.drawImage(img, 0, 0);
		const px = ctx.getImageData(0, 0, img.width, img.height).data, wanted = new Set(fills);
		let n = 0;
		for (let i = 0; i < px.length; i += 4)
			if (wanted.has(`rgb(${px[i]},${px[i + 1]},${px[i + 2]})`)) n++;
		return n;
	}, [png.toString('base64'), Array.from(want)]);
	const area = boxes.reduce((sum, b) => sum + parseFloat(b.width) * 15, 0);
	return counted / area;
}

function tsvName(s) {
	return s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

function frames(browser, base, outDir, files) {
	return eachWithin(browser, files, async (page, file, name) => {
		await load(page, `${base}/${path.basename(file)}`);
		const boxes = await readBoxes(page);
		const png = await page.screenshot({ path: path.join(outDir, name + '.png') });
		fs.writeFileSync(path.join(outDir, name + '.tsv'), boxes.map((b) =>
			[b.depth, tsvName(b.name), b.count, b.x, b.width, b.first, b.length].join('\t') + '\n').join(''));
		const shown = await fillShown(page, png, boxes);
		if (page.errors.length)
			console.log(`${name} FAIL script errors: ${page.errors.join('; ')}`);
		else if (!(shown > 0.5))
			console.log(`${name} FAIL the screenshot shows ${(100 * shown).toFixed(0)}% of the boxes' area`);
		else
			console.log(`${name} ok`);
	});
}

// A tick's label in seconds: render/units.c's time units.
function seconds(label) {
	const m = /^(-?[0-9.]+)(ns|us|ms|s|hrs)?$/.exec(label);
	return m ? Number(m[1]) * { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1, hrs: 3600 }[m[2] || 's'] : NaN;
}

// The times at the left and right ends of the boxes (pad, and width - pad) as the axis's tick labels and places say.
async function axisSpan(page) {
	const [ticks, width] = await page.evaluate(() => [Array.from(document.querySelectorAll('#axis text')).map((t) =>
		[t.textContent, parseFloat(t.getAttribute('x'))]), width]);
	const read = ticks.map(([label, x]) => [seconds(label), x]).filter(([t]) => !isNaN(t));
	if (read.length < 2)
		return [NaN, NaN];
	const [t0, x0] = read[0], [t1, x1] = read[read.length - 1], per = (t1 - t0) / (x1 - x0);
	return [t0 + (10 - x0) * per, t0 + (width - 10 - x0) * per];
}

function lanes(browser, base, outDir, files) {
	return eachWithin(browser, files, async (page, file, name) => {
		await load(page, `${base}/${path.basename(file)}`);
		const seen = await page.evaluate(() => {
			const roots = {}, lanes = [];
			Array.from(document.querySelectorAll('#frames > g')).forEach((g) => {
				const lane = g.getAttribute('data-lane') || '0', rect = g.querySelector('rect');
				const y = parseFloat(rect.getAttribute('y')), title = g.querySelector('title').textContent;
				const len = Number(g.getAttribute('data-len'));
				if (!(lane in roots)) {
					roots[lane] = { y: y, name: title.slice(0, title.lastIndexOf(' (')), root: len, sum: 0 };
					lanes.push(roots[lane]);
				} else if (Math.round(Math.abs(y - roots[lane].y) / 16) === 1) {
					roots[lane].sum += len;
				}
			});
			return { lanes: lanes };
		});
		const png = await page.screenshot({ path: path.join(outDir, name + '.png') });
		const shown = await fillShown(page, png, await readBoxes(page));
		const axis = await axisSpan(page);
		// A click on the widest box of the second lane (else the first) below its root: the axis, written again, spans its time.
		const pick = await page.evaluate(() => {
			const lane = boxes.some((b) => b.lane === 1) ? 1 : 0;
			let best = null;
			boxes.forEach((b) => { if (b.lane === lane && b.depth > 0 && (!best || b.width > best.width)) best = b; });
			return [Array.from(document.querySelectorAll('#frames > g')).indexOf(best.g), best.title];
		});
		await page.locator('#frames > g').nth(pick[0]).click();
		const zoomed = await axisSpan(page), ran = seconds(/, ([^ ,]*)\)$/.exec(pick[1])[1]);
		fs.writeFileSync(path.join(outDir, name + '.lanes'), `axis ${axis[1]}\nzoom ${ran} ${zoomed[1] - zoomed[0]}\n` +
			seen.lanes.map((l) => `lane ${tsvName(l.name)}\t${l.root}\t${l.sum}\n`).join(''));
		if (page.errors.length)
			console.log(`${name} FAIL script errors: ${page.errors.join('; ')}`);
		else if (!(shown > 0.5))
			console.log(`${name} FAIL the screenshot shows ${(100 * shown).toFixed(0)}% of the boxes' area`);
		else
			console.log(`${name} ok`);
	});
}

function report(what, ok, why) {
	console.log(ok ? `ok ${what}` : `FAIL ${what}: ${why}`);
}

// The box to zoom to: of those narrower than the root, the one with the most boxes under it.
function pickBox(boxes) {
	let best = -1, most = 0;
	boxes.forEach((b, i) => {
		const under = boxes.filter((c) => c.depth > b.depth && within(c, b)).length;
		if (i > 0 && Number(b.count) < Number(boxes[0].count) && under > most) {
			best = i;
			most = under;
		}
	});
	return best;
}

function within(c, b) {
	return parseFloat(c.rx) >= parseFloat(b.rx) - 0.05 &&
	       parseFloat(c.rx) + parseFloat(c.rw) <= parseFloat(b.rx) + parseFloat(b.rw) + 0.05;
}

async function zoomChecks(page, before, pick) {
	const b = before[pick], width = await page.evaluate(() => width);
	const ratio = (width - 20) / parseFloat(b.rw);
	await page.locator('#frames > g').nth(pick).click();
	const after = await readBoxes(page);
	const z = after[pick];
	report('click zooms the box to the full width', z.rx === '10.0' && Math.abs(parseFloat(z.rw) - (width - 20)) < 0.15,
		`x ${z.rx}, width ${z.rw}`);
	let scaled = 0, bad = [];
	before.forEach((e, i) => {
		const a = after[i], under = e.depth > b.depth && within(e, b) && i !== pick;
		const over = e.depth < b.depth && within(b, e);
		if (under && parseFloat(e.rw) > 0.5) {
			scaled++;
			if (!a.shown || Math.abs(parseFloat(a.rw) - parseFloat(e.rw) * ratio) > 0.2 * ratio)
				bad.push(`${e.name} ${a.rw} not ${(parseFloat(e.rw) * ratio).toFixed(1)}`);
		} else if (over && (!a.shown || !a.cls.includes('parent'))) {
			bad.push(`ancestor ${e.name} not dimmed`);
		} else if (!under && !over && i !== pick && e.depth > 0 && parseFloat(e.rw) > 0.5 && a.shown) {
			bad.push(`${e.name} at ${e.rx} still shown`);
		}
	});
	report(`zoom scales the subtree (${scaled} boxes) and hides the rest`, bad.length === 0 && scaled > 0,
		bad.slice(0, 3).join('; ') || 'no box under it');
}

async function interact(browser, base, file, regex, matched, shot) {
	const url = `${base}/${path.basename(file)}`;
	const page = await open(browser, url);
	const before = await readBoxes(page);
	const pick = pickBox(before);
	if (pick < 0) { report('a box to zoom to', false, 'none has children'); return; }
	await page.locator('#frames > g').nth(pick).hover();
	const shown = await page.textContent('#details'), b = before[pick];
	const samples = b.first === '0' ? '' : `, samples ${b.first}\u2013${Number(b.first) + Number(b.length) - 1}`;
	report('hover shows name, count and percent', shown === `Function: ${b.title}${samples}`, `"${shown}"`);
	await zoomChecks(page, before, pick);
	page.once('dialog', (d) => d.accept(regex));
	await page.keyboard.press('Control+f');
	await page.waitForFunction(() => document.getElementById('matched').textContent.trim() !== '');
	const got = await page.textContent('#matched');
	report('search reports the matched percent', got === matched, `"${got}", not "${matched}"`);
	const state = new URL(page.url()).searchParams;
	report('the URL keeps zoom and search', state.get('x') === before[pick].rx && state.get('s') === regex,
		page.url());
	const searched = await readBoxes(page);
	if (shot) await page.screenshot({ path: shot });
	const again = await open(browser, page.url());
	const reopened = await readBoxes(again);
	const same = reopened.every((r, i) => r.rx === searched[i].rx && r.rw === searched[i].rw &&
		r.shown === searched[i].shown && r.fill === searched[i].fill);
	report('a URL with state reopens the same view', same && await again.textContent('#matched') === got,
		'boxes or matched text differ');
	await page.locator('#unzoom').click();
	const reset = await readBoxes(page);
	report('Reset Zoom restores every box', reset.every((r, i) => r.rx === before[i].rx &&
		r.rw === before[i].rw && r.shown), 'a box moved');
	report('no script errors', page.errors.length === 0 && again.errors.length === 0,
		page.errors.concat(again.errors).join('; '));
}

// ---- sprof's plots (-t sprofplot) ----

// What a mark's title says, by panel: a point's x and y, a bar's height,
// a dash's records and values, a strip's records.
const plotRules = [
	[/^nodes-time$/, /^self (\d+), total (\d+): /, (m) => ({ x: +m[1], y: +m[2] })],
	[/^nodes-log$/, /^self (\d+), total (\d+): /, (m) => ({ x: +m[1] + 1, y: +m[2] })],
	[/^nodes-(self|total)$/, /^(?:self|total) (\d+): /, (m) => ({ bar: +m[1] })],
	[/^stacks-length$/, /^stack \d+: refcount (\d+), length (\d+)$/, (m) => ({ x: +m[1], y: +m[2] })],
	[/^stacks-refcount$/, /^stack \d+: refcount (\d+)$/, (m) => ({ bar: +m[1] })],
	[/^profiles-strip$/, /^events (\d+)\.\.(\d+): (?:mostly )?stack \d+$/, (m) => ({ from: +m[1], to: +m[2] })],
	[/^(profiles|memory)-/, /^events (\d+)\.\.(\d+): \S+ (-?\d+)(?:\.\.(-?\d+))?$/,
		(m) => ({ from: +m[1], to: +m[2], lo: +m[3], hi: m[4] === undefined ? +m[3] : +m[4] })],
];

// Each panel as the page lays it out: its ticks (value, pixel) and its marks (title, box).
function readPlot(page) {
	return page.evaluate(() => {
		const left = document.documentElement.getBoundingClientRect().left;
		const top = document.documentElement.getBoundingClientRect().top;
		const box = (el) => { const b = el.getBoundingClientRect();
			return { x: b.left - left, y: b.top - top, w: b.width, h: b.height }; };
		const ticks = (panel, cls, axis) => Array.from(panel.querySelectorAll('.' + cls)).map((g) => {
			const b = box(g.querySelector('line'));
			return { v: parseFloat(g.querySelector('text').textContent), px: axis === 'x' ? b.x + b.w / 2 : b.y + b.h / 2 };
		});
		return Array.from(document.querySelectorAll('.panel')).map((panel) => ({
			id: panel.id, frame: box(panel.querySelector('.frame')),
			xticks: ticks(panel, 'xtick', 'x'), yticks: ticks(panel, 'ytick', 'y'),
			marks: Array.from(panel.querySelectorAll('.marks > :not(text)')).map((el) => ({
				tag: el.tagName, title: el.querySelector('title').textContent, box: box(el),
			})),
		}));
	});
}

// The axis as a person reads it off the ticks: pixel = a + b * value (log10 value on a log axis).
function axisOf(ticks, log) {
	if (ticks.length < 2) return null;
	const f = (v) => (log ? Math.log10(v) : v), first = ticks[0], last = ticks[ticks.length - 1];
	const b = (last.px - first.px) / (f(last.v) - f(first.v)), a = first.px - b * f(first.v);
	const bad = ticks.find((t) => Math.abs(a + b * f(t.v) - t.px) > 0.5);
	return bad ? null : (v) => a + b * f(v);
}

function near(a, b) { return Math.abs(a - b) <= 1.0; }

// Where a mark must be, from its title's values and the panel's axes; why not, or ''.
function misplaced(panel, mark, X, Y) {
	const rule = plotRules.find((r) => r[0].test(panel.id));
	const m = rule && mark.title.match(rule[1]);
	if (!m) return `a title the panel does not hold: "${mark.title}"`;
	const v = rule[2](m), b = mark.box, cx = b.x + b.w / 2, cy = b.y + b.h / 2;
	if (v.x !== undefined && !(near(cx, X(v.x)) && near(cy, Y(v.y))))
		return `"${mark.title}" at (${cx.toFixed(1)}, ${cy.toFixed(1)}), not (${X(v.x).toFixed(1)}, ${Y(v.y).toFixed(1)})`;
	if (v.bar !== undefined && !(near(b.y, Y(v.bar)) && near(b.y + b.h, Y(0))))
		return `bar "${mark.title}" from ${b.y.toFixed(1)} to ${(b.y + b.h).toFixed(1)}, not ${Y(v.bar).toFixed(1)} to ${Y(0).toFixed(1)}`;
	if (v.from !== undefined && !near(cx, (X(v.from - 0.5) + X(v.to + 0.5)) / 2))
		return `"${mark.title}" centred at x ${cx.toFixed(1)}, not ${((X(v.from - 0.5) + X(v.to + 0.5)) / 2).toFixed(1)}`;
	if (v.lo !== undefined && !(near(b.y, Y(v.hi) - 1.5) && near(b.y + b.h, Y(v.lo) + 1.5)))
		return `"${mark.title}" from y ${b.y.toFixed(1)} to ${(b.y + b.h).toFixed(1)}, not ${(Y(v.hi) - 1.5).toFixed(1)} to ${(Y(v.lo) + 1.5).toFixed(1)}`;
	return '';
}

function checkPanel(panel) {
	const log = panel.id === 'nodes-log';
	const X = axisOf(panel.xticks, log), Y = axisOf(panel.yticks, log);
	if (panel.xticks.length && !X) return 'x ticks not evenly spaced';
	if (panel.yticks.length && !Y) return 'y ticks not evenly spaced';
	const bars = panel.marks.filter((m) => m.tag === 'rect' && /^(nodes|stacks)-/.test(panel.id));
	for (let i = 1; i < bars.length; i++)
		if (bars[i].box.x <= bars[i - 1].box.x || bars[i].box.h > bars[i - 1].box.h + 0.5)
			return `bars not sorted, largest left: "${bars[i].title}"`;
	for (const mark of panel.marks) {
		const why = misplaced(panel, mark, X, Y);
		if (why)
			return why;
	}
	return '';
}

// The share of each panel's plot area that is not white, in the screenshot.
async function inked(page, png, panels) {
	return page.evaluate(async ([data, frames]) => {
		const img = await createImageBitmap(await (await fetch('data:image/png;base64,' + data)).blob());
		const ctx = new OffscreenCanvas(img.width, img.height).getContext('2d');
		ctx.drawImage(img, 0, 0);
		return frames.map((f) => {
			const px = ctx.getImageData(Math.round(f.x) + 2, Math.round(f.y) + 2, Math.round(f.w) - 4, Math.round(f.h) - 4).data;
			let n = 0;
			for (let i = 0; i < px.length; i += 4) if (px[i] + px[i + 1] + px[i + 2] < 600) n++;
			return n / (px.length / 4);
		});
	}, [png.toString('base64'), panels.map((p) => p.frame)]);
}

function plots(browser, base, outDir, files) {
	return eachWithin(browser, files, async (page, file, name) => {
		await load(page, `${base}/${path.basename(file)}`, () => document.querySelectorAll('.panel').length > 0);
		const panels = await readPlot(page);
		const png = await page.screenshot({ path: path.join(outDir, name + '.png') });
		fs.writeFileSync(path.join(outDir, name + '.tsv'), panels.flatMap((p) => p.marks.map((m) =>
			[p.id, m.tag, tsvName(m.title), m.box.x.toFixed(1), m.box.y.toFixed(1), m.box.w.toFixed(1),
			 m.box.h.toFixed(1)].join('\t') + '\n')).join(''));
		const ink = await inked(page, png, panels);
		const blank = panels.find((p, i) => p.marks.length > 0 && !(ink[i] > 0.002));
		const wrong = panels.map((p) => [p.id, checkPanel(p)]).find((w) => w[1]);
		if (page.errors.length)
			console.log(`${name} FAIL script errors: ${page.errors.join('; ')}`);
		else if (blank)
			console.log(`${name} FAIL panel ${blank.id} shows nothing in the screenshot`);
		else if (wrong)
			console.log(`${name} FAIL ${wrong[0]}: ${wrong[1]}`);
		else
			console.log(`${name} ok`);
	});
}

async function main() {
	const [mode, ...args] = process.argv.slice(2);
	const files = mode === 'frames' || mode === 'plot' || mode === 'lanes' ? args.slice(1) : [args[0]];
	const server = await serve(files);
	const base = `http://127.0.0.1:${server.address().port}`;
	const browser = await chromium.launch();
	try {
		if (mode === 'frames')
			await frames(browser, base, args[0], files);
		else if (mode === 'plot')
			await plots(browser, base, args[0], files);
		else if (mode === 'lanes')
			await lanes(browser, base, args[0], files);
		else
			await inTime(`interact ${args[0]}`, interact(browser, base, args[0], args[1], args[2], args[3]));
	} finally {
		await browser.close();
		server.close();
	}
}

main().catch((e) => { console.error(String(e)); process.exit(1); });

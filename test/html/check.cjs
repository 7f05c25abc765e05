// Judges prof's HTML report (-t html) as a person uses it, in headless
// Chromium (Debian's, through playwright-core), opened from disk (file:).
//
//   node check.cjs open FILE.html...
//     Opens each page, and each of its views in turn, in one browser.
//     Prints "NAME ok" when every view drew and the console showed no
//     error or warning, else "NAME FAIL why".
//
//   node check.cjs views OUTDIR FILE.html
//     Screenshots each view to OUTDIR/VIEW.png and prints "ok VIEW" when
//     the screenshot is not blank (some pixels far from the background in
//     the view's area), and the view's numbers as the page shows them:
//       OUTDIR/top.TYPE.tsv   flat, flat%, cum, cum%, name: every row of Top ("show
//                             more" clicked until it is gone), per type
//       OUTDIR/tree.tsv       the call tree opened whole: depth, self,
//                             total, name (top-down), default type
//       OUTDIR/bottom.tsv     the same, bottom-up
//       OUTDIR/lines.tsv      file, line, self, total
//       OUTDIR/header.txt     the header's labels, values and warnings
//
//   node check.cjs interact OUTDIR FILE.html FUNCTION REGEX
//     Sorts Top by each column (rows in order), filters it by REGEX (every
//     row matches), switches the sample type (the table changes with it),
//     clicks FUNCTION and writes its callers and callees as the peek
//     shows them (OUTDIR/callers.tsv, OUTDIR/callees.tsv), follows a
//     caller, reopens the page's URL in a new page and compares what it
//     shows; the flame graph shows the selected function searched. Prints
//     "ok WHAT" or "FAIL WHAT: why" per check.
//
//   node check.cjs timing FILE.html
//     How long the page takes to open (best of 3): wall and main-thread time.
//
//   node check.cjs shot PNG FILE.html FRAGMENT
//     The page opened at #FRAGMENT, screenshot (test/make-report-png.sh).
//
// Needs playwright-core (NODE_PATH) and Chromium at $CHROMIUM or /usr/bin/chromium.
'use strict';
const chromium = require('../speedscope/chromium.cjs');
const { within, runWithin } = chromium;
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const ready = (page) => page.waitForFunction(() => document.body && document.body.dataset.ready === '1', null,
	{ timeout: 20000 });

async function views(page) {
	return page.$$eval('#tabs button', (bs) => bs.map((b) => b.getAttribute('data-view')));
}

async function showView(page, view) {
	await page.click(`#tabs button[data-view="${view}"]`);
	await ready(page);
}

// A tab whose page errors and console errors and warnings are kept in page.problems.
async function newTab(context) {
	const page = await context.newPage();
	page.problems = [];
	page.on('pageerror', (e) => page.problems.push('page error: ' + e));
	page.on('console', (m) => {
		if (m.type() === 'error' || m.type() === 'warning')
			page.problems.push('console ' + m.type() + ': ' + m.text());
	});
	return page;
}

async function open(context, url) {
	const page = await newTab(context);
	await page.goto(url);
	await ready(page);
	return page;
}

async function openEach(files) {
	const browser = await chromium.launch();
	const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
	// One tab for every page: a new one per page would be most of the time.
	let page = await newTab(context);
	for (const file of files) {
		const name = path.basename(file, '.html');
		page.problems = [];
		try {
			await within(name, (async () => {
				await page.goto(pathToFileURL(path.resolve(file)).href);
				await ready(page);
				// Each tab clicked in the page itself, as a person would, without a round trip per view.
				await page.evaluate(async () => {
					const drawn = () => new Promise((done) => {
						const poll = () => (document.body.dataset.ready === '1' ? done() : setTimeout(poll, 5));
						poll();
					});
					for (const tab of document.querySelectorAll('#tabs button')) {
						tab.click();
						await drawn();
					}
				});
			})());
			console.log(page.problems.length ? `${name} FAIL ${page.problems.join('; ')}` : `${name} ok`);
		} catch (e) {
			console.log(`${name} FAIL ${String(e).split('\n')[0]}`);
			// A page still busy (a script looping) would hold the next one up: a new tab.
			await page.close();
			page = await newTab(context);
		}
	}
	await browser.close();
}

// Is the screenshot of the view's area more than background? Counts pixels
// far from white in a PNG decoded by the page itself.
async function inked(page, png) {
	return page.evaluate(async (b64) => {
		const img = new Image();
		img.src = 'data:image/png;base64,' + b64;
		await img.decode();
		const c = document.createElement('canvas');
		c.width = img.width;
		c.height = img.height;
		const g = c.getContext('2d');
		g.drawImage(img, 0, 0);
		const d = g.getImageData(0, 0, c.width, c.height).data;
		let ink = 0;
		for (let i = 0; i < d.length; i += 4)
			if (d[i] + d[i + 1] + d[i + 2] < 600) ink++;
		return ink / (d.length / 4);
	}, png.toString('base64'));
}

async function showMore(page) {
	while (await page.$('button.more'))
		await page.click('button.more').then(() => ready(page));
}

const cells = (page, selector) => page.$$eval(selector, (rows) =>
	rows.map((r) => Array.from(r.children).map((c) => c.textContent)));

async function openWholeTree(page) {
	await page.click('#open-all');
	await ready(page);
}

async function viewsOf(outdir, file) {
	const browser = await chromium.launch();
	const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
	const page = await open(context, pathToFileURL(path.resolve(file)).href);
	for (const view of await views(page)) {
		await showView(page, view);
		const main = await page.$('#view');
		const png = await main.screenshot({ path: path.join(outdir, view + '.png') });
		const share = await inked(page, png);
		console.log(share > 0.002 ? `ok ${view}` : `FAIL ${view}: blank (${share})`);
	}
	fs.writeFileSync(path.join(outdir, 'header.txt'), await page.$eval('#summary', (h) =>
		Array.from(h.querySelectorAll('dt, dd, summary, li')).map((e) => e.textContent + '\n').join('')));
	await showView(page, 'top');
	const types = await page.$$eval('#type option', (os) => os.map((o) => [o.value, o.textContent.split(' (')[0]]));
	for (const [value, type] of types) {
		await page.selectOption('#type', value);
		await ready(page);
		await showMore(page);
		const rows = await cells(page, '#top tbody tr');
		fs.writeFileSync(path.join(outdir, `top.${type}.tsv`), rows.map((r) => [r[0], r[1], r[3], r[4], r[5]].join('\t') + '\n').join(''));
	}
	await page.selectOption('#type', types.length ? types[0][0] : '0');
	await page.goto(page.url().replace(/#.*/, ''));
	await ready(page);
	for (const view of ['tree', 'bottom']) {
		if (!(await views(page)).includes(view))
			continue;
		await showView(page, view);
		await openWholeTree(page);
		const rows = await page.$$eval('#calltree tbody tr:not(.elided)', (trs) => trs.map((r) =>
			[r.getAttribute('data-depth'), r.children[0].textContent, r.children[2].textContent,
			 r.children[4].textContent.trim().replace(/^[\u25b8\u25be\u2003] ?/, '')].join('\t')));
		fs.writeFileSync(path.join(outdir, view + '.tsv'), rows.map((r) => r + '\n').join(''));
	}
	if ((await views(page)).includes('lines')) {
		await showView(page, 'lines');
		const rows = await page.$$eval('#view h2', (hs) => hs.flatMap((h) =>
			Array.from(h.nextElementSibling.querySelectorAll('tbody tr')).map((r) =>
				[h.textContent, r.children[0].textContent, r.children[1].textContent, r.children[3].textContent].join('\t'))));
		fs.writeFileSync(path.join(outdir, 'lines.tsv'), rows.map((r) => r + '\n').join(''));
	}
	console.log(page.problems.length ? `FAIL console: ${page.problems.join('; ')}` : 'ok console');
	await browser.close();
}

const number = (s) => Number(s.replace('%', ''));

async function sortedBy(page, column, index, ascending, name) {
	await page.click(`#top th:nth-child(${index + 1})`);
	await ready(page);
	const rows = await cells(page, '#top tbody tr');
	const keys = rows.map((r) => r[index]);
	for (let i = 1; i < keys.length; i++) {
		const c = name ? (keys[i - 1] < keys[i] ? -1 : keys[i - 1] > keys[i] ? 1 : 0) : number(keys[i - 1]) - number(keys[i]);
		if (ascending ? c > 0 : c < 0)
			return `FAIL sort by ${column}${ascending ? ' ascending' : ''}: row ${i} (${keys[i - 1]} then ${keys[i]})`;
	}
	return rows.length > 1 ? `ok sort by ${column}${ascending ? ' ascending' : ''}` : `FAIL sort by ${column}: ${rows.length} rows`;
}

async function interact(outdir, file, fn, regex) {
	const browser = await chromium.launch();
	const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
	const page = await open(context, pathToFileURL(path.resolve(file)).href);
	const say = (line) => console.log(line);
	for (const [column, index, name] of [['cum', 3], ['flat', 0], ['name', 5, true]]) {
		say(await sortedBy(page, column, index, !!name, name));
		say(await sortedBy(page, column, index, !name, name));
	}
	await page.fill('#search', regex);
	await ready(page);
	const names = (await cells(page, '#top tbody tr')).map((r) => r[5]);
	const re = new RegExp(regex);
	say(names.length && names.every((n) => re.test(n)) ? `ok filter ${regex}: ${names.length} rows`
		: `FAIL filter ${regex}: ${names.filter((n) => !re.test(n)).join(', ') || 'no rows'}`);
	fs.writeFileSync(path.join(outdir, 'filtered.tsv'), names.map((n) => n + '\n').join(''));
	await page.fill('#search', '');
	await ready(page);
	const before = await cells(page, '#top tbody tr');
	const types = await page.$$eval('#type option', (os) => os.length);
	const opened = await page.$eval('#type', (s) => s.value);
	if (types > 1) {
		await page.selectOption('#type', opened === '1' ? '0' : '1');
		await ready(page);
		const after = await cells(page, '#top tbody tr');
		say(JSON.stringify(after) !== JSON.stringify(before) ? 'ok type switch changes Top' : 'FAIL type switch: Top unchanged');
		await page.selectOption('#type', opened);
		await ready(page);
	}
	const row = await page.$(`#top tbody tr:has(td.name:text-is("${fn}"))`);
	if (!row) {
		say(`FAIL click ${fn}: no such row`);
	} else {
		await row.click();
		await ready(page);
		const callers = await cells(page, '#peek .peek-callers tbody tr');
		const callees = await cells(page, '#peek .peek-callees tbody tr');
		fs.writeFileSync(path.join(outdir, 'callers.tsv'), callers.map((r) => r[2] + '\t' + r[0] + '\n').join(''));
		fs.writeFileSync(path.join(outdir, 'callees.tsv'), callees.map((r) => r[2] + '\t' + r[0] + '\n').join(''));
		say(await page.$eval('#peek h2', (h) => h.textContent) === fn ? `ok peek of ${fn}` : `FAIL peek of ${fn}`);
		await page.screenshot({ path: path.join(outdir, 'peek.png') });
		if (callers.length) {
			await page.click('#peek .peek-callers tbody tr:first-child');
			await ready(page);
			const shown = await page.$eval('#peek h2', (h) => h.textContent);
			say(shown === callers[0][2] ? `ok follow caller ${shown}` : `FAIL follow caller: ${shown}`);
			await page.click(`#top tbody tr:has(td.name:text-is("${fn}"))`);
			await ready(page);
		}
	}
	await showView(page, 'tree');
	const selectedInTree = await page.$$eval('#calltree tr.selected', (rs) => rs.length);
	say(selectedInTree ? `ok tree opens on ${fn}: ${selectedInTree} rows` : `FAIL tree shows no ${fn}`);
	await showView(page, 'flame');
	const searched = await page.$eval('#picture', (f) => f.contentWindow.term);
	say(searched && new RegExp(searched).test(fn) ? `ok flame graph searches ${fn}` : `FAIL flame graph search: ${searched}`);
	await page.screenshot({ path: path.join(outdir, 'flame-selected.png') });
	const url = page.url();
	const shown = await page.$eval('#view', (v) => v.innerHTML.length);
	const again = await open(context, url);
	const view = await again.$eval('#tabs button.on', (b) => b.getAttribute('data-view'));
	const term = await again.$eval('#picture', (f) => f.contentWindow.term).catch(() => null);
	say(view === 'flame' && term === searched && (await again.$eval('#view', (v) => v.innerHTML.length)) === shown
		? 'ok the URL reopens the view' : `FAIL the URL reopens ${view}, search ${term}`);
	say(page.problems.length + again.problems.length
		? `FAIL console: ${page.problems.concat(again.problems).join('; ')}` : 'ok console');
	await browser.close();
}

// The page at URL fragment FRAGMENT, screenshot to PNG at 1400x900 (README's picture).
async function shot(png, file, fragment) {
	const browser = await chromium.launch();
	const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
	const page = await open(context, pathToFileURL(path.resolve(file)).href + fragment);
	await page.screenshot({ path: png });
	console.log(page.problems.length ? `FAIL console: ${page.problems.join('; ')}` : 'ok');
	await browser.close();
}

// How long the page takes to open on its first view: wall time from the
// navigation to the view drawn, and the main thread's busy time (CDP's
// TaskDuration, which other load on the machine inflates less), best of 3.
async function timing(file) {
	const browser = await chromium.launch();
	const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
	let best = null;
	for (let i = 0; i < 3; i++) {
		const page = await context.newPage();
		const cdp = await context.newCDPSession(page);
		await cdp.send('Performance.enable');
		const before = await cdp.send('Performance.getMetrics');
		await page.goto(pathToFileURL(path.resolve(file)).href);
		await ready(page);
		const wall = await page.evaluate(() => performance.now());
		const after = await cdp.send('Performance.getMetrics');
		const busy = (m) => m.metrics.find((x) => x.name === 'TaskDuration').value;
		const run = { wall, busy: 1000 * (busy(after) - busy(before)) };
		if (!best || run.wall < best.wall) best = run;
		await page.close();
	}
	console.log(`${path.basename(file)} opens in ${best.wall.toFixed(0)} ms, main thread busy ${best.busy.toFixed(0)} ms`);
	await browser.close();
}

const [mode, outdir, ...rest] = process.argv.slice(2);
const run = { open: () => openEach([outdir].concat(rest)), views: () => viewsOf(outdir, rest[0]),
	      interact: () => interact(outdir, rest[0], rest[1], rest[2]), shot: () => shot(outdir, rest[0], rest[1]),
	      timing: () => timing(outdir) }[mode];
// open holds each page to the limit itself; the others are one page each.
if (mode === 'open')
	run().catch((e) => { console.log('FAIL ' + String(e).split('\n')[0]); process.exit(1); });
else
	runWithin(`${mode} ${rest[0] || outdir}`, run);

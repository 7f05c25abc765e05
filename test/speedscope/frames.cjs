// Loads a profile into the real speedscope app (the npm package's static
// build) in headless Chromium, opens its Sandwich view (a table of every
// frame with its self and total weight) and prints one line per frame:
// "name<TAB>self<TAB>total", as speedscope shows them, for the tests to
// compare with prof's own view of the profile.
//
// Usage: node frames.cjs SPEEDSCOPE_RELEASE_DIR PROFILE [SCREENSHOT.png]
// Needs playwright-core (NODE_PATH) and Chromium at $CHROMIUM or
// /usr/bin/chromium. Serves the app on 127.0.0.1 only.
'use strict';
const chromium = require('./chromium.cjs');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

async function main() {
const [appDir, profilePath, screenshot] = process.argv.slice(2);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
		'.wasm': 'application/wasm', '.png': 'image/png', '.woff2': 'font/woff2' };
const server = http.createServer((req, res) => {
	const url = decodeURIComponent(req.url.split('?')[0]);
	const file = url === '/profile' ? profilePath : path.join(appDir, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
	fs.readFile(file, (err, data) => {
		if (err) { res.writeHead(404); res.end(); return; }
		res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
		res.end(data);
	});
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch();
try {
	// Tall enough that the Sandwich table, which renders only visible rows, shows them all.
	const page = await browser.newPage({ viewport: { width: 1600, height: 12000 } });
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(base + '/profile')}`);
	// speedscope names the page after the profile once it has loaded it.
	await page.waitForFunction(() => document.title.includes(' - speedscope'), null, { timeout: 30000 });
	await page.keyboard.press('3');
	// The Sandwich table: Total, Self, Symbol Name (React builds it without a tbody).
	await page.waitForSelector('table tr:has(td)', { timeout: 30000 });
	if (screenshot) await page.screenshot({ path: screenshot });
	const rows = await page.$$eval('table tr:has(td)', (trs) => trs.map((tr) =>
		Array.from(tr.querySelectorAll('td')).map((td) => td.textContent.trim())));
	if (rows.length > 500) throw new Error(`${rows.length} rows: more than the viewport is known to show`);
	// Printed as the tests compare them: name, self, total, the numbers as shown.
	for (const [total, self, name] of rows)
		console.log([name, self.replace(/ \(.*$/, ''), total.replace(/ \(.*$/, '')].join('\t'));
	if (errors.length) { console.error(errors.join('\n')); process.exitCode = 1; }
} finally {
	await browser.close();
	server.close();
}
}

main().catch((e) => { console.error(String(e)); process.exit(1); });

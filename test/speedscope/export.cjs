// Loads a profile into the real speedscope app (as frames.cjs does) in
// headless Chromium, presses its Export button and saves the file the app
// downloads: speedscope's own JSON of the profile, as a user would get it.
//
// Usage: node export.cjs SPEEDSCOPE_RELEASE_DIR PROFILE OUT.speedscope.json
// Needs playwright-core (NODE_PATH) and Chromium at $CHROMIUM or
// /usr/bin/chromium. Serves the app on 127.0.0.1 only.
'use strict';
const chromium = require('./chromium.cjs');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

async function main() {
const [appDir, profilePath, out] = process.argv.slice(2);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
		'.wasm': 'application/wasm', '.png': 'image/png', '.woff2': 'font/woff2' };
// The profile is served under its own name: speedscope picks some importers by it.
const served = '/' + encodeURIComponent(path.basename(profilePath));
const server = http.createServer((req, res) => {
	const url = req.url.split('?')[0];
	const file = url === served ? profilePath
		: path.join(appDir, path.normalize(decodeURIComponent(url)).replace(/^(\.\.[/\\])+/, ''));
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
	const page = await browser.newPage({ acceptDownloads: true });
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(base + served)}`);
	await page.waitForFunction(() => document.title.includes(' - speedscope'), null, { timeout: 30000 });
	const [download] = await Promise.all([
		page.waitForEvent('download', { timeout: 30000 }),
		page.getByText('Export').first().click(),
	]);
	await download.saveAs(out);
	if (errors.length) { console.error(errors.join('\n')); process.exitCode = 1; }
} finally {
	await browser.close();
	server.close();
}
}

main().catch((e) => { console.error(String(e)); process.exit(1); });

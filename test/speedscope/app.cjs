// The real speedscope app (the npm package's static build) served on
// 127.0.0.1 with one profile beside it, and a headless Chromium page open
// at that profile once the app has loaded it: what frames.cjs and
// export.cjs share. The profile is served under the name given, since
// speedscope picks some importers by a file's name.
'use strict';
const chromium = require('./chromium.cjs');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
		'.wasm': 'application/wasm', '.png': 'image/png', '.woff2': 'font/woff2' };

function serve(appDir, profilePath, servedName) {
	const server = http.createServer((req, res) => {
		const url = decodeURIComponent(req.url.split('?')[0]);
		const file = url === '/' + servedName ? profilePath
			: path.join(appDir, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
		fs.readFile(file, (err, data) => {
			if (err) { res.writeHead(404); res.end(); return; }
			res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
			res.end(data);
		});
	});
	return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

// Resolves to { page, errors (the page's uncaught errors), close() }.
exports.open = async (appDir, profilePath, servedName, pageOptions) => {
	const server = await serve(appDir, profilePath, servedName);
	const base = `http://127.0.0.1:${server.address().port}`;
	const browser = await chromium.launch();
	const close = async () => { await browser.close(); server.close(); };
	try {
		const page = await browser.newPage(pageOptions);
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		const profileURL = base + '/' + encodeURIComponent(servedName);
		await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(profileURL)}`);
		// speedscope names the page after the profile once it has loaded it.
		await page.waitForFunction(() => document.title.includes(' - speedscope'), null, { timeout: 30000 });
		return { page, errors, close };
	} catch (e) {
		await close();
		throw e;
	}
};

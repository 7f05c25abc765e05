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
const app = require('./app.cjs');
const { runWithin } = require('./chromium.cjs');

async function main() {
	const [appDir, profilePath, screenshot] = process.argv.slice(2);
	// Tall enough that the Sandwich table, which renders only visible rows, shows them all.
	const { page, errors, close } = await app.open(appDir, profilePath, 'profile',
						       { viewport: { width: 1600, height: 12000 } });
	try {
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
		await close();
	}
}

runWithin('speedscope showing ' + process.argv[3], main);

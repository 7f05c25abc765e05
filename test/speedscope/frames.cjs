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

// How much of the Sandwich table its scroller hides (in px).
function hiddenHeight() {
	const scrollers = Array.from(document.querySelectorAll('div')).filter((d) =>
		getComputedStyle(d).overflowY === 'auto' && d.querySelector('table'));
	return Math.max(0, ...scrollers.map((d) => d.scrollHeight - d.clientHeight));
}
function nothingHidden() {
	return Array.from(document.querySelectorAll('div')).every((d) =>
		getComputedStyle(d).overflowY !== 'auto' || !d.querySelector('table') || d.scrollHeight <= d.clientHeight);
}

async function main() {
	const [appDir, profilePath, screenshot] = process.argv.slice(2);
	const { page, errors, close } = await app.open(appDir, profilePath, 'profile',
						       { viewport: { width: 1600, height: 900 } });
	try {
		await page.keyboard.press('3');
		// The Sandwich table: Total, Self, Symbol Name (React builds it without a tbody).
		await page.waitForSelector('table tr:has(td)', { timeout: 30000 });
		// It renders only the rows in view: the page is made as tall as its
		// scroller needs to show them all, and only then (a tall page is
		// slow to draw: a fixed 12000 px was a third of each run).
		const hidden = await page.evaluate(hiddenHeight);
		if (hidden > 0) {
			await page.setViewportSize({ width: 1600, height: 900 + hidden + 100 });
			await page.waitForFunction(nothingHidden, null, { timeout: 30000 });
		}
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

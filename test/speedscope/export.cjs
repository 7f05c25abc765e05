// Loads a profile into the real speedscope app (as frames.cjs does) in
// headless Chromium, presses its Export button and saves the file the app
// downloads: speedscope's own JSON of the profile, as a user would get it.
//
// Usage: node export.cjs SPEEDSCOPE_RELEASE_DIR PROFILE OUT.speedscope.json
// Needs playwright-core (NODE_PATH) and Chromium at $CHROMIUM or
// /usr/bin/chromium. Serves the app on 127.0.0.1 only.
'use strict';
const app = require('./app.cjs');
const { runWithin } = require('./chromium.cjs');
const path = require('node:path');

async function main() {
	const [appDir, profilePath, out] = process.argv.slice(2);
	const { page, errors, close } = await app.open(appDir, profilePath, path.basename(profilePath),
						       { acceptDownloads: true });
	try {
		const [download] = await Promise.all([
			page.waitForEvent('download', { timeout: 30000 }),
			page.getByText('Export').first().click(),
		]);
		await download.saveAs(out);
		if (errors.length) { console.error(errors.join('\n')); process.exitCode = 1; }
	} finally {
		await close();
	}
}

runWithin('speedscope exporting ' + process.argv[3], main);

// Starts Debian's headless Chromium once for a test run (test/lib.sh's
// install_browser_tools), as test/speedscope/chromium.cjs starts it, and
// prints the address every browser tool then connects to (BROWSER_WS).
// It ends when the run does: on SIGTERM (test/run.sh's exit), or when the
// process that started it is gone.
'use strict';
const { chromium } = require('playwright-core');
const { options } = require('./chromium.cjs');

(async () => {
	const server = await chromium.launchServer(options);
	console.log(server.wsEndpoint());
	const parent = process.ppid;
	setInterval(() => {
		try {
			process.kill(parent, 0);
		} catch {
			server.close().then(() => process.exit(0));
		}
	}, 1000);
})().catch((e) => {
	console.error(String(e).split('\n')[0]);
	process.exit(1);
});

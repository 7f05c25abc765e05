// Debian's headless Chromium, started as every browser test here starts
// it: as root it needs --no-sandbox, and the other flags keep it off the
// network, which this machine does not have; and the limit every page a
// check opens is held to. Needs playwright-core
// (NODE_PATH, or test/speedscope/node_modules) and Chromium at $CHROMIUM
// or /usr/bin/chromium.
'use strict';
// NO_BROWSER (make check SANITIZE=1 and VALGRIND=1, test/lib.sh): every
// browser tool does nothing, so that a check's own runs of prof still run.
if (process.env.NO_BROWSER) process.exit(0);
const { chromium } = require('playwright-core');

exports.options = {
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	       '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};
// BROWSER_WS (test/lib.sh): the Chromium the test run started once
// (test/speedscope/browser-server.cjs), which each tool connects to
// instead of starting its own: a start cost more than most checks' pages.
// Closing a browser connected to closes only the contexts its tool made.
exports.launch = () => (process.env.BROWSER_WS ? chromium.connect(process.env.BROWSER_WS)
	: chromium.launch(exports.options));

// Every page a check opens has a limit: a page that never gets ready, or a
// script of its that never ends (page.evaluate has no timeout of its own),
// fails its check by name instead of hanging the suite. 60 s, far above
// what the slowest page takes on a loaded machine; BROWSER_PAGE_LIMIT_MS
// sets another (the test of the limit sets a short one).
const limitMs = Number(process.env.BROWSER_PAGE_LIMIT_MS) || 60000;

// Resolves as work does, or rejects saying that WHAT gave no answer in time.
exports.within = (what, work) => {
	let timer;
	const late = new Promise((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what}: no answer within ${limitMs / 1000} s`)), limitMs);
	});
	return Promise.race([work, late]).finally(() => clearTimeout(timer));
};

// For a tool that opens one page: MAIN run within the limit, else "FAIL why"
// on stderr and exit 1 (the browser, playwright's child, ends with node).
exports.runWithin = (what, main) => exports.within(what, main()).catch((e) => {
	console.error('FAIL ' + String(e).split('\n')[0]);
	process.exit(1);
});

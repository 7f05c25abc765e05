// Debian's headless Chromium, started as every browser test here starts
// it: as root it needs --no-sandbox, and the other flags keep it off the
// network, which this machine does not have. Needs playwright-core
// (NODE_PATH, or test/speedscope/node_modules) and Chromium at $CHROMIUM
// or /usr/bin/chromium.
'use strict';
const { chromium } = require('playwright-core');

exports.launch = () => chromium.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	       '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

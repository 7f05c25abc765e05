// Copies a .cpuprofile with endTime moved to its last sample's time, the
// one place where prof's wall weights and speedscope's import differ by
// choice: prof weighs the last sample until endTime, speedscope gives it
// nothing. Usage: node end-at-last-sample.cjs IN OUT
'use strict';
const fs = require('node:fs');
const profile = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
profile.endTime = profile.timeDeltas.reduce((t, d) => t + d, profile.startTime);
fs.writeFileSync(process.argv[3], JSON.stringify(profile));

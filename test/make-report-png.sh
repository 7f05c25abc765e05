#!/bin/sh
# Makes docs/report.png, README's picture of docs/report.html (what `make
# demo` writes): Top with the callers and callees of mean, as Debian's
# headless Chromium shows it (test/html/check.cjs, playwright-core as
# test/lib.sh installs it). Run after `make demo`:
#   sh test/make-report-png.sh
cd "$(dirname "$0")/.." || exit 2
NODE_PATH=test/speedscope/node_modules node test/html/check.cjs shot docs/report.png docs/report.html \
	'#view=top&type=samples&fn=mean'

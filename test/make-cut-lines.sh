#!/bin/sh
# Makes testdata/rprof/cut-lines.out from R's own optim-line.out: its
# header and #File line, then its longest sample that ends in a line
# reference and the outermost frame, whole and then one byte shorter at a
# time, as R's line buffer or a copy taken mid-write leaves a sample: 18
# lines, 2 ending cleanly in '" ' and 16 mid-token, in a name or in a line
# reference. The cut that would end right after the reference and its
# space is left out: R 3.x writes such a line whole, a call site after the
# outermost frame.
set -eu
cd "$(dirname "$0")/.."
awk 'NR == 1 || /^#File / { print; next }
	/ [0-9]+#[0-9]+ "[^"]*" $/ && length($0) > length(longest) { longest = $0 }
	END {
		for (k = 0; k <= 18; k++) {
			line = substr(longest, 1, length(longest) - k)
			if (line !~ / [0-9]+#[0-9]+ $/)
				print line
		}
	}' testdata/rprof/optim-line.out > testdata/rprof/cut-lines.out

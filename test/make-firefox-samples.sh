#!/bin/sh
# Regenerates testdata/firefox/ with Debian's firefox-esr (apt-get install
# firefox-esr; 153.8.0esr made the committed files): Firefox, headless,
# profiles its own start-up and test/firefox/busy.html (half a second of JS)
# with the Gecko Profiler's start-up environment variables, GeckoMain
# threads only, every 2 ms, and saves the Gecko profile as it shuts down.
# test/firefox/derive.py makes the committed files of it (its markers left
# out): the Gecko profile, the old DevTools panel's wrapper of the page's
# process, and the processed format (versions 48 and 70) that
# profiler.firefox.com and samply save. Sampling is timer driven: every
# run gives other files, and the tests judge them by speedscope and a
# reference reading, never by fixed numbers.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../testdata/firefox"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/home"
MOZ_PROFILER_STARTUP=1 MOZ_PROFILER_STARTUP_FILTERS=GeckoMain MOZ_PROFILER_STARTUP_INTERVAL=2 \
	MOZ_PROFILER_SHUTDOWN="$work/gecko.json" \
	firefox-esr --headless --no-remote --profile "$work/home" \
	--screenshot "$work/page.png" "file://$here/firefox/busy.html" > "$work/log" 2>&1
python3 "$here/firefox/derive.py" "$work/gecko.json" "$here/firefox" "$out"

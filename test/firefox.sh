# firefox, sourced by test/run.sh (uses test/lib.sh, PROF, UNIT, TMP): the
# Firefox Profiler's files that Debian's firefox-esr made, and what
# test/firefox/derive.py made of one (testdata/firefox/, made by
# test/make-firefox-samples.sh): their stacks and counts are a reference
# reading's, the speedscope app shows the DevTools panel's file as it shows
# prof's output of it, the processed format's two layouts read alike, each
# file is sniffed as firefox alone (never as a V8 .cpuprofile), and every
# sample has its thread.
. test/firefox-lib.sh
install_browser_tools
FF=testdata/firefox

# Sniffed: the firefox probe bids, no other does (a processed profile's
# samples have timeDeltas, as a .cpuprofile's do).
sniffed_as_firefox_alone() { # FILE
	$UNIT probes "$1" > "$TMP/ff.probes" 2>&1 &&
		awk '$2 > 0' "$TMP/ff.probes" | cmp -s - /dev/fd/3 3<< 'END'
firefox 95
END
}
# Every row has the thread it was sampled on: its name and its tid.
every_row_has_its_thread() { # FILE
	$UNIT labels firefox "$1" > "$TMP/ff.labels" 2>&1 && [ -s "$TMP/ff.labels" ] &&
		! grep -v 'thread=GeckoMain tid=[0-9]' "$TMP/ff.labels" > /dev/null
}
# Gzip undone, from stdin as from the file.
stdin_reads_as_file() { # FILE
	prof_q -s 0 -t folded "$1" > "$TMP/ff.file" && prof_q -s 0 -t folded < "$1" > "$TMP/ff.stdin" &&
		cmp -s "$TMP/ff.file" "$TMP/ff.stdin"
}
for f in $(light_every 2 $FF/*.json.gz); do
	check "$f is sniffed as firefox, by no other probe" sniffed_as_firefox_alone "$f"
	heavy "$f: prof's stacks and counts are the reference reading's" firefox_is_reference "$f"
	check "$f: every sample has its thread" every_row_has_its_thread "$f"
	check "$f reads from stdin as from the file" stdin_reads_as_file "$f"
done

# The processed format's versions 48 (tables per thread, prefix, time) and
# 70 (shared tables, prefixOffset, timeDeltas, merged samples' weights, a
# frame's lib) of one profile: the same stacks and counts.
same_samples() { # A B
	prof_q -s samples -t folded "$1" > "$TMP/ff.a" && prof_q -s samples -t folded "$2" > "$TMP/ff.b" &&
		LC_ALL=C sort "$TMP/ff.a" | cmp -s - /dev/fd/3 3<< END
$(LC_ALL=C sort "$TMP/ff.b")
END
}
heavy "processed versions 48 and 70 of one profile read alike" \
	same_samples $FF/processed-v48.json.gz $FF/processed-v70.json.gz
# samply's unsymbolicated frames stay addresses, relative to their lib.
prints 0 '^(root);0x[0-9a-f]*;' prof_q -s samples -t folded $FF/processed-v70.json.gz

# Firefox's unsymbolicated addresses keep their libs as mappings, as Go reads prof's pprof.
addresses_in_libs() { # FILE
	prof_q -t pprof -o "$TMP/ff.pb.gz" "$1" &&
		go_raw "$TMP/ff.pb.gz" | grep -q '^[0-9]*: 0x[0-9a-f]*/0x[0-9a-f]*/0x[0-9a-f]* libxul\.so ' &&
		go_raw "$TMP/ff.pb.gz" | grep -Eq '^ +[0-9]+: 0x[0-9a-f]+ M=[1-9]'
}
check "$FF/gecko.json.gz's addresses are in their libs, as Go reads prof's pprof" addresses_in_libs $FF/gecko.json.gz

# Times: a Gecko profile's samples from 0, the wall time to the next
# sample; --time keeps the first half second's.
check "--time 0:0.5 keeps fewer samples of $FF/gecko.json.gz" sh -c \
	'[ "$("$1" -q -s samples -t folded --time 0:0.5 "$2" | wc -l)" -lt "$("$1" -q -s samples -t folded "$2" | wc -l)" ]' \
	- "$PROF" $FF/gecko.json.gz

# The app reads only the old DevTools panel's files (speedscope's
# importer; Gecko and processed files are an "Unrecognized format" to it):
# it shows that file's frames as it shows prof's speedscope JSON of it.
needs_browser heavy "speedscope shows $FF/devtools.json.gz as prof's speedscope JSON of it" \
	firefox_app_shows_as_prof $FF/devtools.json.gz

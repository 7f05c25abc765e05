# Replays every input the fuzzers ever crashed on (test/fuzz/crashers/, named
# TARGET-crash-...) through prof with the normal build, sourced by
# test/run.sh (uses test/lib.sh): each must now be read or refused (exit 0
# or 1, never a signal or a sanitizer report), and, when read, written in
# every format and merged with itself.
for f in test/fuzz/crashers/*; do
	[ -f "$f" ] || continue
	target=${f##*/}
	check "fuzz crasher $f" replays_cleanly "$f" "${target%%-*}"
done

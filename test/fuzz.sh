# Replays every input the fuzzers ever crashed on (test/fuzz/crashers/, named
# TARGET-crash-...) through prof with the normal build, sourced by
# test/run.sh: each must now be read or refused (exit 0 or 1, never a signal
# or a sanitizer report), and, when read, written in every format.
replays_cleanly() { # FILE TARGET
	from=$2
	[ "$from" = any ] && from=auto
	"$PROF" -q -f "$from" --check "$1" > /dev/null 2> "$TMP/replay.err"
	status=$?
	[ $status -le 1 ] || return 1
	grep -q 'runtime error\|Sanitizer' "$TMP/replay.err" && return 1
	[ $status -eq 1 ] && return 0
	for to in $("$PROF" --list-formats | awk '$2 ~ /w/ { print $1 }'); do
		"$PROF" -q -f "$from" -t "$to" "$1" > /dev/null 2> "$TMP/replay.err"
		[ $? -le 1 ] || return 1
		grep -q 'runtime error\|Sanitizer' "$TMP/replay.err" && return 1
	done
	return 0
}
for f in test/fuzz/crashers/*; do
	[ -f "$f" ] || continue
	target=${f##*/}
	check "fuzz crasher $f" replays_cleanly "$f" "${target%%-*}"
done

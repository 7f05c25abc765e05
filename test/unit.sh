# The unit tests of the model and readers (test/unit, built as $UNIT),
# sourced by test/run.sh (uses test/lib.sh, UNIT, TMP): each `ok` line
# passes, each `FAIL` line fails, and a driver that crashes or prints no
# `ok` at all fails once, with its failed checks shown. A driver still
# running after ten minutes (its slowest run, under valgrind, takes about
# one) is stopped and fails: a decomposition that loops must not hang CI.
timeout 600 $UNIT > "$TMP/unit.out" 2> "$TMP/unit.err"
unit_status=$?
unit_end="exit $unit_status"
[ "$unit_status" -ne 124 ] || unit_end="still running after 600 s, stopped"
unit_ok=$(grep -c '^ok ' "$TMP/unit.out")
passed=$((passed + unit_ok))
grep '^FAIL ' "$TMP/unit.out"
unit_bad=$(grep -c '^FAIL ' "$TMP/unit.out")
failed=$((failed + unit_bad))
if [ "$unit_bad" -gt 0 ] || [ "$unit_status" -ne 0 ] || [ "$unit_ok" -eq 0 ]; then
	[ "$unit_bad" -gt 0 ] || fail "unit ($unit_end)"
	grep 'check failed' "$TMP/unit.err"
fi

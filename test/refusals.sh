# Bad input, sourced by test/run.sh (uses test/lib.sh, PROF, TMP): every
# file in testdata/invalid/FORMAT/ is refused with exit 1 and exactly the
# message in its .err file, and writes nothing.
writable=$("$PROF" --list-formats | awk '$2 ~ /^rw/ { print $1 }' | tr '\n' ' ')
refused() { # FILE FORMAT: exit 1, the expected message, no output
	# A format prof only reads is written as folded stacks instead.
	case " $writable " in *" $2 "*) writer=$2 ;; *) writer=folded ;; esac
	"$PROF" -f "$2" -t "$writer" "$1" > "$TMP/out" 2> "$TMP/err"
	[ $? -eq 1 ] && cmp -s "$TMP/err" "$1.err" && [ ! -s "$TMP/out" ]
}
for dir in testdata/invalid/*/; do
	format=$(basename "$dir")
	for f in "$dir"*; do
		case $f in *.err | *.why) continue ;; esac
		check "refuses $f" refused "$f" "$format"
	done
done

# Bytes that are not UTF-8, in every reader --list-formats lists (so that a
# new one is held to it): refused with a file in testdata/invalid/FORMAT/,
# or kept in names where the format allows any bytes, or the format is
# binary, as testdata/any-bytes/README.md says for each, and why.
not_utf8() { ! iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1; }
any_bytes_rule() {
	awk -F'|' -v format="$1" '{ gsub(/ /, "", $2); gsub(/ /, "", $3) } $2 == format { print $3 }' \
		testdata/any-bytes/README.md
}
refuses_bad_utf8() { # FORMAT: a refusal among its invalid files holds bytes that are not UTF-8
	for f in testdata/invalid/"$1"/*; do
		case $f in *.err | *.why) continue ;; esac
		not_utf8 "$f" && grep -q 'UTF-8' "$f.err" && return 0
	done
	return 1
}
keeps_bad_utf8() { # FORMAT: its file here is read, the byte 0xFF in its folded stacks
	set -- "$1" testdata/any-bytes/"$1".*
	[ -f "$2" ] && not_utf8 "$2" && status_is 0 "$PROF" -f "$1" -t folded "$2" &&
		LC_ALL=C grep -q "$(printf '\377')" "$TMP/cli.out"
}
for format in $("$PROF" --list-formats | awk '$2 ~ /^r/ { print $1 }'); do
	case $(any_bytes_rule "$format") in
	refused) check "$format refuses bytes that are not UTF-8 (a file in testdata/invalid/$format/)" \
		refuses_bad_utf8 "$format" ;;
	kept) check "$format keeps bytes that are not UTF-8 in names" keeps_bad_utf8 "$format" ;;
	binary) pass ;;
	*) fail "$format: testdata/any-bytes/README.md says neither refused, kept nor binary" ;;
	esac
done

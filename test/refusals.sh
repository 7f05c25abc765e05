# Bad input, sourced by test/run.sh (uses test/lib.sh, PROF, TMP): every
# file in testdata/invalid/FORMAT/ is refused with exit 1 and exactly the
# message in its .err file, and writes nothing.
writable=$("$PROF" --list-formats | awk '$2 == "rw" { print $1 }' | tr '\n' ' ')
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

# What the JDK's reading of a JFR file says prof must read from it, for
# test/jfr.sh and test/cross-check.sh (uses PROF, TMP, go_raw of
# test/lib.sh). The goldens: STACKS, LINES, THREADS and TIMES as
# test/jfr-folded.py writes them from `jfr print --json --stack-depth
# 1000000`, SUMMARY as `jfr summary` prints it.

# prof's folded stacks of every type the golden has, as "TYPE<tab>STACK COUNT", without 0 lines.
stacks_are_jdks() { # FILE STACKS
	want=$2
	: > "$TMP/jfr.got"
	for t in $(cut -f1 "$want" | LC_ALL=C sort -u); do
		"$PROF" -q -t folded -s "$t" "$1" > "$TMP/jfr.folded" || return 1
		awk -v t="$t" '$NF != "0" { print t "\t" $0 }' "$TMP/jfr.folded" >> "$TMP/jfr.got"
	done
	LC_ALL=C sort "$TMP/jfr.got" | cmp -s - "$want"
}
# prof's event types (a type without ':' counts events): the counts jfr summary gives them.
counts_are_summarys() { # FILE SUMMARY
	"$PROF" -q -t tables "$1" > "$TMP/jfr.tables" || return 1
	types=$(awk '/^# sample_types/ { on = 1; next } /^#/ { on = 0 } on && NF == 2 && $1 != "type" && $1 !~ /:/ { print $1 }' "$TMP/jfr.tables")
	[ -n "$types" ] || return 1
	for t in $types; do
		got=$("$PROF" -q -t summary --exact -s "$t" "$1" | awk '/^total:/ { print $2 }')
		want=$(awk -v t="$t" '$1 == t { print $2 }' "$2")
		[ -n "$got" ] && [ "$got" = "$want" ] || { echo "$t: prof $got, jfr summary $want"; return 1; }
	done
}
# Every frame's name and line, as the locations and functions prof made.
lines_are_jdks() { # FILE LINES
	"$PROF" -q -t tables "$1" > "$TMP/jfr.tables" &&
		awk -F '\t' '/^# / { part = $0; next }
			part == "# functions" && $1 != "function_id" { name[$1] = $2 }
			part == "# locations" && NF == 3 && $1 != "location_id" { loc[$2 ":" $3] = 1 }
			END { for (k in loc) { split(k, p, ":"); print name[p[1]] ":" p[2] } }' "$TMP/jfr.tables" |
		LC_ALL=C sort -u | cmp -s - "$2"
}
# Each type's events by thread label, as go tool pprof reads prof's pprof.
threads_are_jdks() { # FILE THREADS
	"$PROF" -q -t pprof "$1" > "$TMP/jfr.pb.gz" && go_raw "$TMP/jfr.pb.gz" > "$TMP/jfr.raw" &&
		awk '/^Samples:/ { getline; n = split($0, types, " "); for (i = 1; i <= n; i++) { sub(/\/.*/, "", types[i]) }; on = 1; next }
			/^Locations/ { on = 0 }
			on && /^ *[0-9-]+( +[0-9-]+)*:/ { split($0, v, ":"); k = split(v[1], vals, " "); last = 1; next }
			on && last && /thread:\[/ { t = $0; sub(/.*thread:\[/, "", t); sub(/\].*/, "", t)
				for (i = 1; i <= k; i++) if (types[i] !~ /:/ && vals[i] != 0) n_by[types[i] "\t" t] += vals[i]
				last = 0 }
			END { for (key in n_by) print key "\t" n_by[key] }' "$TMP/jfr.raw" |
		LC_ALL=C sort | cmp -s - "$2"
}
# Each type's events by second from the first, as --time windows select them.
times_are_jdks() { # FILE TIMES
	: > "$TMP/jfr.got"
	last=$(awk -F '\t' '$2 > m { m = $2 } END { print m + 0 }' "$2")
	for t in $(cut -f1 "$2" | LC_ALL=C sort -u); do
		s=0
		while [ "$s" -le "$last" ]; do
			n=$("$PROF" -q --time "$s:$((s + 1))" -s "$t" -t summary "$1" 2> /dev/null | awk '/^total:/ { print $2 }')
			[ "${n:-0}" = 0 ] || printf '%s\t%s\t%s\n' "$t" "$s" "$n" >> "$TMP/jfr.got"
			s=$((s + 1))
		done
	done
	LC_ALL=C sort "$TMP/jfr.got" | cmp -s - "$2"
}

# What callgrind_annotate (valgrind) says of a callgrind file, for
# test/callgrind.sh and test/cross-check.sh (uses PROF, TMP).

# "file:function<TAB>self<TAB>inclusive" of EVENT, sorted; functions with a cost.
callgrind_annotate_rows() { # FILE EVENT
	file=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	for inclusive in no yes; do
		# From /: callgrind_annotate strips the current directory from some names only.
		(cd / && callgrind_annotate --auto=no --threshold=100 --show="$2" --inclusive=$inclusive "$file" 2> /dev/null) |
			awk 'function without_object(s,   i, depth) { # " [OBJECT]" at the end, brackets in OBJECT balanced
				if (s !~ /\]$/) return s
				for (i = length(s); i > 1; i--) {
					c = substr(s, i, 1); depth += (c == "]") - (c == "[")
					if (depth == 0 && substr(s, i - 1, 1) == " ") return substr(s, 1, i - 2) }
				return s }
			     /file:function/ { rows = 1; getline; next }
			     rows && NF { v = $1; gsub(",", "", v); if (v == ".") v = 0
					  sub(/^ *[0-9,.]+ +(\([ 0-9.]+%\) +)?/, ""); $0 = without_object($0); gsub(/\t/, " "); print $0 "\t" v }' |
			LC_ALL=C sort > "$TMP/cga.$inclusive"
	done
	LC_ALL=C join -t '	' -a1 -a2 -e 0 -o 0,1.2,2.2 "$TMP/cga.no" "$TMP/cga.yes" | awk -F '\t' '$2 != 0 || $3 != 0'
}

# The functions of a callgrind file whose inclusive cost of EVENT no stacks
# can give, one a line: those on a cycle of calls with a cost (prof counts
# each cost once), those called from themselves (callgrind counts the
# nested calls twice), those called for more than they hold (self plus
# their calls: prof keeps the rest as untraced calls under them,
# docs/callgraph.md) and for less (clone() starting a thread: prof counts
# what it holds, callgrind_annotate what its calls brought).
callgrind_inexact_functions() { # FILE EVENT
	awk -v event="$2" '
		function name(kind, v,   id) {
			if (match(v, /^\([0-9]+\)/)) {
				id = substr(v, 1, RLENGTH)
				if (length(v) > RLENGTH) names[kind, id] = substr(v, RLENGTH + 2)
				return names[kind, id]
			}
			return v
		}
		/^events:/ { for (i = 2; i <= NF; i++) if ($i == event) col = i - 1 }
		/^fl=|^fi=|^fe=/ { file = name("fl", substr($0, 4)); next }
		/^fn=/ { fn = name("fn", substr($0, 4)); next }
		/^cfi=|^cfl=/ { cfile = name("fl", substr($0, 5)); next }
		/^cfn=/ { callee = (cfile != "" ? cfile : file) ":" name("fn", substr($0, 5)); cfile = ""; next }
		/^jfi=/ { name("fl", substr($0, 5)); next }
		/^jfn=/ { name("fn", substr($0, 5)); next }
		/^ob=|^cob=/ { next }
		/^calls=/ { call = 1; next }
		/^(jump|jcnd)=/ { jump = 1; next }
		/^[0-9+*-]/ {
			if (jump) { jump = 0; next }
			key = file ":" fn
			n = split($0, f, /[ \t]+/)
			cost = f[positions + col]; cost += 0
			if (call) { into[callee] += cost; if (callee == key) self_called[key] = 1; else out[key] += cost
				    if (cost > 0 && callee != key && !((key, callee) in arc)) { arc[key, callee] = 1; callees[key] = callees[key] SUBSEP callee }
				    callers[callee] = callers[callee] SUBSEP key; call = 0 }
			else self[key] += cost
			seen[key] = 1
		}
		/^positions:/ { positions = NF - 1 }
		BEGIN { positions = 1 }
		function reaches(from, to,   n, c, i) { # depth first over arcs with a cost
			if (from in seen_from) return 0
			seen_from[from] = 1
			n = split(callees[from], c, SUBSEP)
			for (i = 2; i <= n; i++) if (c[i] == to || reaches(c[i], to)) return 1
			return 0
		}
		END {
			for (k in seen) { delete seen_from; if (reaches(k, k)) print k }
			for (k in into) if (self_called[k] || into[k] != self[k] + out[k]) print k
		}' "$1" | LC_ALL=C sort -u
}

# The frames prof names for time the graph cannot place (docs/callgraph.md).
callgraph_markers='(untraced calls)\|(no recorded caller)'

# Per event: self equal for every function, inclusive for all but the inexact ones.
callgrind_read_back_is_input() { # FILE [OPTION...]
	"$PROF" -q -t callgrind "$@" > "$TMP/r.callgrind" || return 1
	for event in $(sed -n 's/^events: *//p' "$1"); do
		callgrind_inexact_functions "$1" "$event" > "$TMP/cg.inexact"
		callgrind_annotate_rows "$1" "$event" > "$TMP/cg.in"
		callgrind_annotate_rows "$TMP/r.callgrind" "$event" | grep -v "$callgraph_markers" > "$TMP/cg.out"
		[ -s "$TMP/cg.in" ] || return 1
		# A function with no self cost may be one no stack can hold (called for more than it holds).
		awk -F '\t' -v OFS='\t' '$2 != 0 { print $1, $2 }' "$TMP/cg.out" > "$TMP/cg.self.out"
		awk -F '\t' -v OFS='\t' '$2 != 0 { print $1, $2 }' "$TMP/cg.in" | cmp -s - "$TMP/cg.self.out" || return 1
		awk -F '\t' 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' "$TMP/cg.inexact" "$TMP/cg.in" > "$TMP/cg.exact.in"
		awk -F '\t' 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' "$TMP/cg.inexact" "$TMP/cg.out" |
			cmp -s - "$TMP/cg.exact.in" || return 1
	done
}


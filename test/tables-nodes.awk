# Per function name, the self and total samples of a profile, worked out
# from its tables (`prof -t tables`; run with LC_ALL=C): a sample counts
# its `samples` column; self where the name is the innermost frame, total
# once per sample however often the name recurs in it. A location with no
# function is R's reference alone, "<no location>"; an empty name is
# "<unknown>". Prints "name<TAB>self<TAB>total", names escaped as the
# tables escape them, in no order.
BEGIN { FS = "\t" }
/^# / { section = substr($0, 3); header = 1; next }
/^$/ { next }
header {
	header = 0
	if (section == "samples") for (i = 1; i <= NF; i++) if ($i == "samples") col = i
	next
}
section == "samples" { value[$1] = $col }
section == "sample_locations" { loc[$1, $2] = $3; if ($2 > depth[$1]) depth[$1] = $2 }
section == "locations" { function_of[$1] = $2 }
section == "functions" { name_of[$1] = $2 == "" ? "<unknown>" : $2 }
END {
	name_of["NA"] = "<no location>"
	for (s in value) {
		if (!(s in depth)) continue
		split("", seen)
		for (p = 1; p <= depth[s]; p++) {
			n = name_of[function_of[loc[s, p]]]
			if (p == 1) self[n] += value[s]
			if (!(n in seen)) total[n] += value[s]
			seen[n] = 1
		}
	}
	for (n in total) printf "%s\t%.0f\t%.0f\n", n, self[n], total[n]
}

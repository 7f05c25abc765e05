# The boxes a flame chart of an R profile must show, worked out from the
# profile's tables (`prof -t tables`; run with LC_ALL=C): sprof's recursive
# run-length encoding of the samples' stacks in time order (a run at depth
# d: consecutive samples that agree on depths 1..d), each run one box.
# A sample counts 1, or with -v cpu=1 its run's interval in nanoseconds
# (-v intervals="US US ...", one per Rprof run, from the file's headers).
# A run narrower than -v minwidth px (at -v width) is left out; consecutive
# narrow runs under one parent become one "..." box from the first one's
# start to the last one's end, counting theirs, shown when it is wide
# enough. Prints "depth<TAB>name<TAB>count<TAB>x<TAB>width<TAB>first<TAB>
# length", names escaped as the tables escape them.
BEGIN { FS = "\t" }
/^# / { section = substr($0, 3); header = 1; next }
header { header = 0; next }
/^$/ { next }
section == "samples" { rows++; ticks[rows] = $2; run[rows] = $NF }
section == "sample_locations" { loc[$1, $2] = $3; if ($2 > depth_of[$1]) depth_of[$1] = $2 }
section == "locations" { function_of[$1] = $2 }
section == "functions" { name_of[$1] = $2 }
# A location with no function is R's reference alone, drawn as "<no location>".
BEGIN { name_of["NA"] = "<no location>" }

# Runs get ids as they start (the root is 0) and are listed as they end.
function close_to(depth,   id) {
	for (; open > depth; open--) {
		id = o_id[open]
		ended[++runs] = id
		r_depth[id] = open; r_name[id] = o_name[open]; r_parent[id] = o_id[open - 1]
		r_start[id] = o_start[open]; r_count[id] = at - o_start[open]
		r_first[id] = o_first[open]; r_len[id] = sample - o_first[open]
	}
}
function box(depth, name, count, start, span, first, len,   x1, x2) {
	x1 = sprintf("%.1f", 10 + start * per)
	x2 = sprintf("%.1f", 10 + (start + span) * per)
	printf "%d\t%s\t%.0f\t%s\t%.1f\t%d\t%d\n", depth, name, count, x1, x2 - x1, first, len
}
function flush(p) {
	if (g_runs[p] && !(g_end[p] - g_start[p] < min))
		box(r_depth[g_member[p]], "...", g_count[p], g_start[p], g_end[p] - g_start[p], g_first[p], g_end_sample[p] - g_first[p])
	g_runs[p] = 0
}
END {
	split(intervals, interval, " ")
	at = 0; sample = 1; o_id[0] = 0
	for (r = 1; r <= rows; r++) {
		k = depth_of[r]
		for (d = 1; d <= k; d++)
			path[d] = name_of[function_of[loc[r, k - d + 1]]]
		same = 0
		while (same < open && same < k && o_name[same + 1] == path[same + 1])
			same++
		close_to(same)
		for (; open < k; open++) {
			o_name[open + 1] = path[open + 1]; o_start[open + 1] = at; o_first[open + 1] = sample
			o_id[open + 1] = ++ids
		}
		at += ticks[r] * (cpu ? interval[run[r]] * 1000 : 1)
		sample += ticks[r]
	}
	close_to(0)
	per = (width - 20) / at
	min = minwidth / per
	box(0, "all", at, 0, at, 1, sample - 1)
	# Runs were recorded as they ended: each parent after its children, siblings in order.
	for (i = 1; i <= runs; i++) {
		r = ended[i]
		p = r_parent[r]
		if (!(r_count[r] < min)) {
			flush(p)
			box(r_depth[r], r_name[r], r_count[r], r_start[r], r_count[r], r_first[r], r_len[r])
		} else {
			if (!g_runs[p]) { g_start[p] = r_start[r]; g_first[p] = r_first[r]; g_count[p] = 0; g_member[p] = r }
			g_runs[p]++
			g_count[p] += r_count[r]
			g_end[p] = r_start[r] + r_count[r]
			g_end_sample[p] = r_first[r] + r_len[r]
		}
		flush(r)
	}
	flush(0)
}

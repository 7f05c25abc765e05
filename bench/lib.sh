# What bench/run.sh and bench/fleet.sh share: the machine, and timing a
# command (median of 3 runs: wall time, max RSS and CPU time, user and
# system, from /usr/bin/time) into a row of bench/RESULTS.md. CPU time is
# given beside wall time because the machines the bench runs on are
# shared: what others run stretches wall time, not CPU time. The caller
# sets DATA.
machine="$(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(free -g | awk '/Mem:/ { print $2 }') GB"
today=$(date +%F)
results=bench/RESULTS.md
# median of 3 by wall time: "seconds max_rss_kb cpu_seconds"
measure() {
	for i in 1 2 3; do
		/usr/bin/time -o "$DATA/time.$i" -f "%e %M %U %S" sh -c "$1" > /dev/null 2>&1 || echo "FAILED: $1" >&2
	done
	cat "$DATA/time.1" "$DATA/time.2" "$DATA/time.3" | sort -n | sed -n 2p |
		awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }'
}
row() { # LABEL COMMAND [BASELINE_SECONDS BASELINE_RSS_KB BASELINE_NAME [BASELINE_OUT_BYTES]]
	set -- "$1" "$2" "${3:-}" "${4:-}" "${5:-}" "${6:-}"
	m=$(measure "$2")
	s=${m%% *}; kb=${m#* }; kb=${kb%% *}; cpu=${m##* }
	ratio=
	[ -n "$3" ] && ratio=$(awk -v a="$s" -v b="$3" -v ra="$kb" -v rb="$4" -v n="$5" \
		-v ca="$cpu" -v cb="$(cat "$DATA/base.cpu")" \
		'BEGIN { printf "%.2fx time (%.2fx CPU), %.2fx RSS of %s", a / b, (cb > 0 ? ca / cb : 0), ra / rb, n }')
	# Writing speed: output bytes per second against the baseline's.
	[ -n "$6" ] && ratio="$ratio$(sh -c "$2" | wc -c | awk -v a="$s" -v b="$3" -v ob="$6" -v n="$5" \
		'{ printf "; writes %.0f MB/s, %.2fx the rate of %s", $1 / a / 1e6, ($1 / a) / (ob / b), n }')"
	printf '| %s | %s | `%s` | %s (%s CPU) | %d | %s |\n' "$today" "$1" "$2" "$s" "$cpu" $((kb / 1024)) "$ratio" | tee -a "$results"
}
# A baseline's "seconds max_rss_kb"; its CPU seconds wait in $DATA/base.cpu for the next row.
baseline() { m=$(measure "$1"); echo "${m##* }" > "$DATA/base.cpu"; echo "${m% *}"; }

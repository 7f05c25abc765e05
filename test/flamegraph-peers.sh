#!/bin/sh
# prof's flame graphs against flamegraph.pl's, frame for frame.
#   sh test/flamegraph-peers.sh SHARED_DIR     (CI's cross-check: ../shared)
# SHARED_DIR/peers/flamegraph/ holds folded inputs with the frames that
# flamegraph.pl drew for each (NAME.frames.tsv at its defaults,
# NAME.frames-minwidth0.tsv with --minwidth 0; README there). These files
# come from another project and stay there: nothing here copies them.
#
# flamegraph_peers SHARED_DIR prints "ok" or "FAIL" per input and variant
# and returns non-zero on any failure. prof's frames must equal
# flamegraph.pl's: the same depth, name and count, x and width within half
# a pixel. Where flamegraph.pl is wrong (it sorts whole lines, so `as` and
# `as.environment` split `as` in two) the frames left over on both sides
# are compared summed by depth and name, and only when flamegraph.pl drew
# some name twice at one depth more often than prof did.
if [ $# -ne 1 ] || [ ! -d "$1/peers/flamegraph" ]; then
	echo "usage: sh test/flamegraph-peers.sh SHARED_DIR (with peers/flamegraph/)" >&2
	exit 2
fi
shared=$(cd "$1" && pwd)
cd "$(dirname "$0")/.." || exit 2
PROF=${PROF:-build/prof}

# Rows "depth name count x width" of both sides: ours first, then a line "--", then the peer's.
compare_frames() { # OURS PEER
	{ cat "$1"; echo "--"; cat "$2"; } | LC_ALL=C awk -F'\t' '
		function off(a, b) { return a > b ? a - b : b - a }
		$0 == "--" { peer = 1; next }
		!peer { n++; d[n] = $1; name[n] = $2; c[n] = $3; x[n] = $4; w[n] = $5
			rows[$1 SUBSEP $2 SUBSEP $3] = rows[$1 SUBSEP $2 SUBSEP $3] " " n
			ours_of[$1 SUBSEP $2]++; next }
		{ peers++; peer_of[$1 SUBSEP $2]++
		  k = split(rows[$1 SUBSEP $2 SUBSEP $3], cand, " "); hit = 0
		  for (i = 1; i <= k && !hit; i++)
			if (!used[cand[i]] && off(x[cand[i]], $4) <= 0.5 && off(w[cand[i]], $5) <= 0.5)
				hit = used[cand[i]] = 1
		  if (hit) equal++; else { left_peer[$1 SUBSEP $2] += $3; leftover++ } }
		END {
			for (i = 1; i <= n; i++) if (!used[i]) { left_ours[d[i] SUBSEP name[i]] += c[i]; leftover++ }
			for (k in left_ours) if (left_ours[k] != left_peer[k]) bad = bad " " k
			for (k in left_peer) if (left_ours[k] != left_peer[k]) bad = bad " " k
			for (k in peer_of) split_seen += peer_of[k] > ours_of[k]
			gsub(SUBSEP, ":", bad)
			if (bad != "" || (leftover && !split_seen))
				printf "%d of %d frames equal; differ:%s\n", equal, peers, bad == "" ? " positions" : bad
			else
				printf "%d frames equal, %d compared summed by depth and name\n", equal, leftover
			exit bad != "" || (leftover && !split_seen) || peers == 0
		}'
}

flamegraph_peers() { # SHARED_DIR
	dir=$1/peers/flamegraph
	tmp=$(mktemp -d)
	failures=0
	for folded in "$dir"/*.folded; do
		name=$(basename "$folded" .folded)
		for variant in frames frames-minwidth0; do
			want=$dir/$name.$variant.tsv
			[ -f "$want" ] || continue
			case $variant in *minwidth0) minwidth=0 ;; *) minwidth=0.1 ;; esac
			if "$PROF" -q -f folded -t flamegraph --minwidth "$minwidth" "$folded" > "$tmp/svg" 2> "$tmp/err"; then
				LC_ALL=C awk -f test/svg/escape.awk -f test/svg/frames.awk "$tmp/svg" | cut -f 1-5 > "$tmp/ours"
				tail -n +2 "$want" > "$tmp/peer"
				result=$(compare_frames "$tmp/ours" "$tmp/peer") && status=ok || status=FAIL
			else
				status=FAIL result=$(cat "$tmp/err")
			fi
			[ "$status" = ok ] || failures=$((failures + 1))
			echo "$status flamegraph.pl's $name.$variant: $result"
		done
	done
	rm -rf "$tmp"
	[ "$failures" -eq 0 ]
}

flamegraph_peers "$shared"

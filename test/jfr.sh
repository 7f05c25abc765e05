# Java Flight Recorder (-f jfr), sourced by test/run.sh (uses test/lib.sh,
# PROF, TMP). The recordings are made here by OpenJDK 17 and 25
# (test/make-jfr-samples.sh); what prof must read from each is the JDK's
# own reading of it: NAME.jfr.stacks, .lines, .threads and .times from
# `jfr print --json --stack-depth 1000000` (test/jfr-folded.py), and
# NAME.jfr.summary from `jfr summary`.
JFR=testdata/jfr
. test/jfr-lib.sh
golden_of() { echo "${1%.gz}.$2"; }
for f in "$JFR"/*.jfr "$JFR"/*.jfr.gz; do
	check "$f sniffed as jfr" prints 0 'valid jfr profile' "$PROF" --check "$f"
	check "$f: each event type's stacks and weights as jfr print lists them" stacks_are_jdks "$f" "$(golden_of "$f" stacks)"
	check "$f: each event type's count as jfr summary counts it" counts_are_summarys "$f" "$(golden_of "$f" summary)"
	check "$f: frames' names and lines as jfr print gives them" lines_are_jdks "$f" "$(golden_of "$f" lines)"
	heavy "$f: each type's events by thread as jfr print gives them (go tool pprof)" threads_are_jdks "$f" "$(golden_of "$f" threads)"
	heavy "$f: each type's events in each second, as --time selects them, as jfr print times them" times_are_jdks "$f" "$(golden_of "$f" times)"
done

# A recording cut short: read up to its last whole chunk or event, with a warning naming the offset.
chunk_size() { # FILE OFFSET: the size in the header of the chunk at OFFSET
	od -An -tu1 -j $(($2 + 8)) -N8 "$1" | awk '{ for (i = 1; i <= NF; i++) n = n * 256 + $i; print n }'
}
zcat "$JFR/chunks.jfr.gz" > "$TMP/chunks.jfr"
first=$(chunk_size "$TMP/chunks.jfr" 0)
two=$((first + $(chunk_size "$TMP/chunks.jfr" "$first")))
whole=$(wc -c < "$TMP/chunks.jfr")
cut_at() { head -c "$1" "$TMP/chunks.jfr"; }
cut_inside_header_is_chunks_before() {
	cut_at "$two" | "$PROF" -t tables > "$TMP/jfr.two" 2> "$TMP/jfr.err" && [ ! -s "$TMP/jfr.err" ] &&
		cut_at $((two + 50)) | "$PROF" -t tables > "$TMP/jfr.cut" 2> "$TMP/jfr.err" &&
		grep -q "offset $((two + 50)): the recording is cut short inside a chunk header" "$TMP/jfr.err" &&
		cmp -s "$TMP/jfr.two" "$TMP/jfr.cut"
}
check "a recording cut inside a chunk header: the chunks before, with a warning" cut_inside_header_is_chunks_before
samples_of() { "$PROF" -q -s jdk.ExecutionSample -t summary | awk '/^total:/ { print $2 }'; }
cut_inside_events_reads_what_is_whole() {
	all=$(samples_of < "$TMP/chunks.jfr") && before=$(cut_at "$two" | samples_of) &&
		cut_at $((whole - 1000)) | "$PROF" -s jdk.ExecutionSample -t summary > "$TMP/jfr.cut" 2> "$TMP/jfr.err" &&
		grep -q "offset [0-9]*: the recording is cut short: read up to the last whole event" "$TMP/jfr.err" &&
		cut=$(awk '/^total:/ { print $2 }' "$TMP/jfr.cut") && [ "$cut" -gt "${before:-0}" ] && [ "$cut" -le "$all" ]
}
check "a recording cut inside its last chunk's events: every whole event before, with a warning" cut_inside_events_reads_what_is_whole
# Cut before its first chunk's metadata (the JDK writes it last), a
# recording holds nothing to read: refused, and --check does not call it
# valid.
head -c 100 "$JFR/busy.jfr" > "$TMP/jfr.100"
check "a recording cut before its first chunk's metadata: refused, also by --check" \
	refuses 1 "offset 100: the file ends before its first chunk's metadata event" "$PROF" --check "$TMP/jfr.100"

# An event of a type id the metadata does not define (a JDK 16 emergency
# dump writes type 732 so) is skipped by its size, as the JDK's tools
# skip it; the loop above holds the other events to jfr print and jfr summary.
check "events of a type the metadata does not define: skipped, with one warning at the first's offset" \
	says_times 0 1 "warning: offset 88: an event of type id 732, which the chunk's metadata does not define: skipped" \
	"$PROF" -t folded "$JFR/synthetic-undefined-event.jfr"

# Times: each event's start, so that --time windows split the samples.
time_windows_split() { # FILE
	total=$("$PROF" -q -s jdk.ExecutionSample -t summary "$1" | awk '/^total:/ { print $2 }')
	early=$("$PROF" -q --time 0:1 -s jdk.ExecutionSample -t summary "$1" | awk '/^total:/ { print $2 }')
	late=$("$PROF" -q --time 1: -s jdk.ExecutionSample -t summary "$1" | awk '/^total:/ { print $2 }')
	[ "${early:-0}" -gt 0 ] && [ "${late:-0}" -gt 0 ] && [ $((early + late)) -eq "$total" ]
}
check "busy.jfr: --time windows split its 3 s of samples" time_windows_split "$JFR/busy.jfr"

# A chunk larger than the memory that holds events (16 MB) and than a
# block of samples to sort, whose samples go back in time: the same 1 MB
# of samples 40 times over in one chunk, as async-profiler writes one
# large chunk. Read under --max-memory 80M (the whole chunk and 16 bytes
# a sample did not fit), each stack 40 times the single copy's, and in
# time order: each window of --time holds 40 times the single copy's.
samples_in() { # FILE WINDOW
	"$PROF" -q --time "$2" -t summary "$1" | awk '/^total:/ { print $2 }'
}
big_chunk_in_order_in_bounded_memory() {
	python3 test/make-jfr-synthetic.py --bench "$TMP/once.jfr" 1 &&
		python3 test/make-jfr-synthetic.py --bench "$TMP/forty.jfr" 1 40 &&
		"$PROF" -m 80M -t folded "$TMP/forty.jfr" > "$TMP/forty.folded" &&
		"$PROF" -t folded "$TMP/once.jfr" | awk '{ $NF *= 40; print }' | cmp -s - "$TMP/forty.folded" || return 1
	for window in 0:300 300:700 700:; do
		once=$(samples_in "$TMP/once.jfr" $window) && forty=$(samples_in "$TMP/forty.jfr" $window) &&
			[ "${once:-0}" -gt 0 ] && [ "$forty" -eq $((40 * once)) ] || return 1
	done
}
heavy "a 40 MB chunk whose samples go back in time 40 times: in 80 MB, each stack and each --time window 40 times one copy's" \
	big_chunk_in_order_in_bounded_memory

# What folded stacks drop: the frame type in the system name, the truncated mark as a label.
check "frame types stay in system names" prints 0 'demo.Main.main \[Interpreted\]' "$PROF" -t tables "$JFR/synthetic.jfr"
one_truncated() { # the synthetic file's trace 2 is marked truncated, and one event has it
	"$PROF" -q -t pprof "$JFR/synthetic.jfr" > "$TMP/jfr.pb.gz" && go_raw "$TMP/jfr.pb.gz" > "$TMP/jfr.raw" &&
		[ "$(grep -c 'truncated:\[true\]' "$TMP/jfr.raw")" -eq 1 ]
}
heavy "a stack the JVM cut is labelled truncated (go tool pprof)" one_truncated
check "plain integers read as compressed ones" sh -c '"$1" -q -t tables "$2" | grep -v "^source" > "$4/a" && "$1" -q -t tables "$3" | grep -v "^source" > "$4/b" && cmp -s "$4/a" "$4/b"' \
	sh "$PROF" "$JFR/synthetic.jfr" "$JFR/synthetic-plain.jfr" "$TMP"

# Hidden classes are named without what each run makes anew: two runs of
# Busy named its lambda Busy$$Lambda$83+0x00007f5ba8007a08/715521683 and
# Busy$$Lambda$83+0x00007f8218007a08/992802731 (jfr print), and their
# stacks merge as the JDK's readings of the two, summed.
merged_as_jdks() { # A B TYPE: prof's folded TYPE of A and B merged is the sum of their goldens' stacks
	"$PROF" -q -t folded -s "$3" "$1" "$2" > "$TMP/jfr.folded" || return 1
	awk '$NF != "0"' "$TMP/jfr.folded" | LC_ALL=C sort > "$TMP/jfr.got"
	grep -q 'Busy\$\$Lambda\.test' "$TMP/jfr.got" || return 1
	cat "$(golden_of "$1" stacks)" "$(golden_of "$2" stacks)" |
		awk -F '\t' -v t="$3" '$1 == t { n = split($2, w, " "); s = substr($2, 1, length($2) - length(w[n]) - 1); sum[s] += w[n] }
			END { for (s in sum) print s " " sum[s] }' | LC_ALL=C sort | cmp -s - "$TMP/jfr.got"
}
check "two runs' lambdas merge" merged_as_jdks "$JFR/busy.jfr" "$JFR/busy-again.jfr" jdk.ExecutionSample
full_name_in_pprof() { # go tool pprof shows the whole name as the system name
	"$PROF" -q -t pprof "$JFR/busy.jfr" > "$TMP/jfr.pb.gz" && go_raw "$TMP/jfr.pb.gz" > "$TMP/jfr.raw" &&
		grep -q 'Busy\$\$Lambda\.test :0 s=0(Busy\$\$Lambda\$83+0x00007f5ba8007a08\.715521683\.test \[' "$TMP/jfr.raw"
}
heavy "a hidden class's whole name is pprof's system name (go tool pprof)" full_name_in_pprof
# An allocation's leaf is the class it allocated (alloc.jfr's goldens hold
# it, from jfr print's objectClass); here, as async-profiler shows them.
check "allocated arrays named as Java writes them" prints 0 '^Alloc.main;Alloc.large;long\[\] [0-9]*$' \
	"$PROF" -t folded -s alloc "$JFR/alloc.jfr"

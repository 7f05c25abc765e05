#!/bin/sh
# Makes testdata/legacy/: legacy pprof profiles written by real programs,
# the formats that Go's `go tool pprof` still reads through
# github.com/google/pprof/profile/legacy_profile.go, and what
# `go tool pprof -raw -symbolize=none` prints for each (NAME.raw), the
# reference for prof's legacy reader.
#   cpu-1thread.cpu, cpu-2threads.cpu  gperftools' binary CPU profile
#       (CPUPROFILE=...) of test/legacy/spin.c linked with -lprofiler, one
#       thread and two pthreads; the profile ends with /proc/self/maps
#   heapprofile.heap   gperftools' heap profile (HEAPPROFILE=..., text,
#       "@ heapprofile", then MAPPED_LIBRARIES:) of spin.c with -ltcmalloc
#   go-heap.txt, go-block.txt, go-mutex.txt, go-goroutine.txt,
#   go-threadcreate.txt   runtime/pprof's debug=1 text profiles, written
#       by test/legacy/old.go
# Needs Debian's libgoogle-perftools-dev (libprofiler, libtcmalloc),
# google-perftools and golang-go, a C compiler, and setarch (util-linux),
# run as root from the repository root, without network:
#   apt-get install -y libgoogle-perftools-dev google-perftools golang-go
#   sh test/make-legacy-samples.sh        # remake the profiles, then .raw
#   sh test/make-legacy-samples.sh raw    # remake only the .raw files
# The programs are built in the fixed folder /tmp/prof-legacy, so the
# mapped paths written in the profiles (/tmp/prof-legacy/spin, and the Go
# source /tmp/prof-legacy/old.go in the Go files' comments) are the same
# on every machine; they run under `setarch -R` (no address
# randomization), so reruns give the same addresses. Sampling is timer
# driven: counts differ from run to run.
set -eu
cd "$(dirname "$0")/.."
out=testdata/legacy
build=/tmp/prof-legacy
mkdir -p "$out"
# Go offline, with its caches under /tmp.
HOME=$build/home GOCACHE=$build/gocache GOPATH=$build/gopath
GO111MODULE=off GOFLAGS= GOPROXY=off
export HOME GOCACHE GOPATH GO111MODULE GOFLAGS GOPROXY

if [ "${1:-}" != raw ]; then
	# ---- Part 1: build the programs and write the profiles.
	rm -rf "$build"
	mkdir -p "$build/home" "$build/heap" "$build/go"
	cp test/legacy/spin.c test/legacy/old.go "$build/"
	norandom=
	if setarch "$(uname -m)" -R true 2> /dev/null; then
		norandom="setarch $(uname -m) -R"
	fi
	# -Wl,--no-as-needed: spin.c calls nothing from the profiler
	# libraries, and the linker would drop them otherwise.
	(cd "$build" &&
		cc -O0 -g -fno-omit-frame-pointer -o spin spin.c \
			-Wl,--no-as-needed -lprofiler -Wl,--as-needed -lpthread &&
		cc -O0 -g -fno-omit-frame-pointer -o spin-heap spin.c \
			-Wl,--no-as-needed -ltcmalloc -Wl,--as-needed -lpthread &&
		go build -o old old.go)
	# CPU: one thread at 250 Hz (~150 samples), two threads at 1000 Hz.
	CPUPROFILE=$out/cpu-1thread.cpu CPUPROFILE_FREQUENCY=250 \
		$norandom "$build/spin" 2> /dev/null
	CPUPROFILE=$out/cpu-2threads.cpu CPUPROFILE_FREQUENCY=1000 \
		$norandom "$build/spin" 2 2> /dev/null
	# Heap: the profiler dumps once, at exit (spin.0001.heap).
	HEAPPROFILE=$build/heap/spin $norandom "$build/spin-heap" heap 2> /dev/null
	mv "$build/heap/spin.0001.heap" "$out/heapprofile.heap"
	# Go: old.go writes all five profiles into the folder it is given.
	$norandom "$build/old" "$build/go"
	for name in heap block mutex goroutine threadcreate; do
		mv "$build/go/$name" "$out/go-$name.txt"
	done
fi

# ---- Part 2: what `go tool pprof -raw -symbolize=none` prints for each
# file, run twice to see that it prints the same. A file that go tool
# pprof refuses gets NAME.err (its exit status and message) instead.
mkdir -p "$build/home"
for f in cpu-1thread.cpu cpu-2threads.cpu heapprofile.heap go-heap.txt \
	go-block.txt go-mutex.txt go-goroutine.txt go-threadcreate.txt; do
	name=${f%.*}
	rm -f "$out/$name.raw" "$out/$name.err"
	if go tool pprof -raw -symbolize=none "$out/$f" > "$build/$name.raw" 2> "$build/$name.stderr"; then
		mv "$build/$name.raw" "$out/$name.raw"
		go tool pprof -raw -symbolize=none "$out/$f" > "$build/$name.raw2" 2> /dev/null
		if cmp -s "$out/$name.raw" "$build/$name.raw2"; then
			echo "$f: -raw ok, same output twice"
		else
			echo "$f: -raw ok, but the output differs between two runs"
		fi
	else
		rc=$?
		{ echo "exit $rc"; cat "$build/$name.stderr"; } > "$out/$name.err"
		echo "$f: go tool pprof refused it (exit $rc): $(head -n 1 "$build/$name.stderr")"
	fi
done
ls -l "$out"

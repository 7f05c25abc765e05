#!/bin/sh
# Makes testdata/trace/ with the real programs that write Chrome's trace
# events (testdata/README.md says when it was run):
#   clang-ftime-trace-default.json: Debian's clang compiling
#     test/trace/fib.c with -ftime-trace at its default granularity
#     (500 us): sections that nest, nothing to repair;
#   clang-ftime-trace.json: Debian's clang compiling test/trace/fib.c with
#     -ftime-trace, every section kept (granularity 0): X events written as
#     they end, children before parents, clang's "Total" events on tids of
#     their own, overlapping sections that do not nest;
#   chromium-startup.json: Debian's headless Chromium loading
#     test/trace/busy.html with V8's CPU profiler traced from startup
#     (--trace-startup, every other category off, to keep it small): a
#     Profile event and ProfileChunks from V8's sampler thread per process.
cd "$(dirname "$0")/.." || exit 2
out=testdata/trace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
cp test/trace/fib.c "$tmp/fib.c"
(cd "$tmp" && clang -c -ftime-trace -o fib.o fib.c) || exit 1
cp "$tmp/fib.json" "$out/clang-ftime-trace-default.json"
(cd "$tmp" && clang -c -ftime-trace -ftime-trace-granularity=0 -o fib.o fib.c) || exit 1
cp "$tmp/fib.json" "$out/clang-ftime-trace.json"
${CHROMIUM:-chromium} --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --trace-startup='-*,disabled-by-default-v8.cpu_profiler' \
	--trace-startup-format=json --trace-startup-file="$tmp/chromium.json" --trace-startup-duration=2 \
	--dump-dom "file://$PWD/test/trace/busy.html" > /dev/null 2> "$tmp/chromium.err" || exit 1
cp "$tmp/chromium.json" "$out/chromium-startup.json"
chmod 644 "$out"/*.json

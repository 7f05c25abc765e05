#!/bin/sh
# Makes testdata/pprof/patterns/ with Go's profile package
# (test/go/make-pprof-patterns.go), and beside each file the goldens that
# test/pprof.sh compares prof's output with: F.parsed.txt (Go's profile
# package, test/dump.go) and F.raw.txt (go tool pprof -raw). Needs
# golang-go and golang-github-google-pprof-dev.
set -eu
cd "$(dirname "$0")/.."
export GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS=
out=testdata/pprof/patterns
mkdir -p "$out"
go run test/go/make-pprof-patterns.go "$out"
dump=$(mktemp)
trap 'rm -f "$dump"' EXIT
go build -o "$dump" test/dump.go
for f in "$out"/*.pb.gz; do
	"$dump" "$f" > "$f.parsed.txt"
	go tool pprof -symbolize=none -raw "$f" > "$f.raw.txt" 2> /dev/null
done

#!/bin/sh
# Makes testdata/merge/ with Go's profile package
# (test/go/make-merge-profiles.go): profiles that test/merge.sh merges in
# every order and grouping, judged by Go. Needs golang-go and
# golang-github-google-pprof-dev.
set -eu
cd "$(dirname "$0")/.."
export GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS=
mkdir -p testdata/merge
go run test/go/make-merge-profiles.go testdata/merge

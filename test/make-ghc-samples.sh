#!/bin/sh
# Makes testdata/ghc/'s files with Debian's GHC 9.0.2 (apt-get install ghc
# ghc-prof): test/ghc/fib.hs built for profiling, plain and threaded, and
# run with each cost-centre report option of the RTS. GHC names every
# report PROG.prof; here each is renamed NAME.ghcprof, since `.prof` names
# Python's pstats in prof's registry. The ticks are timer driven: a rerun
# gives other numbers. OUT=DIR writes elsewhere.
#   sh test/make-ghc-samples.sh
set -e
cd "$(dirname "$0")/.."
out=$(cd "${OUT:-testdata/ghc}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp test/ghc/fib.hs "$work/Fib.hs"
cd "$work"
ghc -prof -fprof-auto -rtsopts -O0 Fib.hs -o fib > /dev/null
ghc -prof -fprof-auto -rtsopts -threaded -O0 Fib.hs -o fib-threaded -outputdir thr > /dev/null
./fib +RTS -p -RTS > /dev/null && mv fib.prof "$out/fib-p.ghcprof"
./fib +RTS -P -RTS > /dev/null && mv fib.prof "$out/fib-P.ghcprof"
./fib +RTS -Pa -RTS > /dev/null && mv fib.prof "$out/fib-Pa.ghcprof"
./fib +RTS -pj -RTS > /dev/null && mv fib.prof "$out/fib-pj.ghcprof"
./fib-threaded +RTS -N2 -p -RTS > /dev/null && mv fib-threaded.prof "$out/fib-N2.ghcprof"

#!/bin/sh
# Regenerates testdata/callgrind/ with valgrind's callgrind (Debian
# `valgrind`) from the programs in test/callgrind/, one file per option
# set the reader must handle (docs/formats/callgrind.md). Programs are
# linked statically so that the dynamic loader's few thousand functions
# do not swell the files; counts differ slightly from run to run.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$root/testdata/callgrind
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cc -O1 -g -static -o "$work/recurse" "$here/callgrind/recurse.c"
cc -O1 -g -static -o "$work/inline" "$here/callgrind/inline.c"
cc -O1 -g -static -pthread -o "$work/threads" "$here/callgrind/threads.c"
c++ -O1 -g -static -o "$work/cpp_names" "$here/callgrind/cpp_names.cpp"
grind() { # NAME PROGRAM OPTIONS...: testdata/callgrind/NAME.callgrind
	name=$1 program=$2; shift 2
	(cd "$work" && valgrind --tool=callgrind --callgrind-out-file="$work/$name.%p" "$@" \
		"./$program" > /dev/null 2> "$work/$name.log")
	# With --separate-threads=yes the file without a thread suffix is empty.
	for f in "$work/$name".*; do
		case $f in *.log) continue ;; esac
		# The thread files end in -01, -02: kept as NAME-01.callgrind.
		suffix=${f##*.}; suffix=${suffix#"${suffix%%-*}"}
		[ -s "$f" ] || continue
		# Paths relative to the tree, the same wherever it is checked out.
		sed -e "s|$work/||g" -e "s|$root/||g" "$f" > "$out/$name$suffix.callgrind"
	done
}
grind recurse-default recurse
grind recurse-instr recurse --dump-instr=yes --dump-line=yes
grind recurse-no-compress recurse --compress-strings=no --compress-pos=no
grind inline-instr inline --dump-instr=yes
grind inline-cache-branch inline --cache-sim=yes --branch-sim=yes
grind inline-jumps inline --dump-instr=yes --collect-jumps=yes
grind threads-merged threads --separate-threads=no
grind threads-separate threads --separate-threads=yes
grind cpp-names cpp_names --dump-instr=yes --compress-pos=no
grind recurse-no-line recurse --dump-line=no --dump-instr=yes

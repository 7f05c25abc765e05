#!/bin/sh
# Regenerates testdata/pstats/ with pyenv's CPython 2.7 and 3.6 to 3.13
# (PYENV_ROOT/versions, /root/.pyenv by default): each Python profiles
# test/python/pstats_workload.py with cProfile and with the pure-Python
# profile module (`-o`, so dump_stats writes the file), one Python 3
# merges two runs with pstats.Stats.add, and one profiles functions that
# share a name (test/python/same_names/). Beside each NAME.prof, the same
# Python's pstats loads it into NAME.prof.raw.txt (test/python/pstats_judge.py
# dump), the golden test/pstats.sh holds prof's output against; so the
# tests need only Debian's python3. Times differ from run to run.
# For issue 28's call graphs: cProfile of test/python/pstats_imports.py
# with CPython 3.8 and 3.12 (Python 3's import cycle, and namedtuple's
# eval with time in no recorded callee: untraced calls), and of pytest on
# test/python/pstats_pytest.py with Debian's python3 and python3-pytest
# (pluggy's cycle).
# `--invalid` remakes only the refused inputs below (with build/prof).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$root/testdata/pstats
versions=${PYENV_ROOT:-/root/.pyenv}/versions
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cp "$here/python/pstats_workload.py" "$work/workload.py"
golden() { # PYTHON NAME
	"$1" "$here/python/pstats_judge.py" dump "$out/$2.prof" > "$out/$2.prof.raw.txt"
}
if [ "${1:-}" != --invalid ]; then
for dir in "$versions"/2.7.* "$versions"/3.*; do
	python=$dir/bin/python
	v=$(basename "$dir" | cut -d. -f1,2)
	for module in cProfile profile; do
		name=$(echo "$module" | tr 'A-Z' 'a-z')-$v
		(cd "$work" && "$python" -m "$module" -o "$out/$name.prof" workload.py)
		golden "$python" "$name"
	done
done
# Stats.add: two runs in one file, callers' tuples added.
python=$(ls -d "$versions"/3.11.* | tail -n 1)/bin/python
(cd "$work" && "$python" -m cProfile -o a.prof workload.py && "$python" -m cProfile -o b.prof workload.py &&
	"$python" -c 'import pstats, sys; s = pstats.Stats("a.prof"); s.add("b.prof"); s.dump_stats(sys.argv[1])' \
		"$out/cprofile-add-3.11.prof")
golden "$python" cprofile-add-3.11
# Functions that share a name (test/python/same_names/): `<module>` of
# three files, `__init__` of two classes, `<genexpr>` and `spread` of two
# modules. The working directory is cut from the file names, so that the
# file is the same wherever it is made.
cp -r "$here/python/same_names" "$work/same_names"
(cd "$work/same_names" && "$python" -m cProfile -o same.prof main.py &&
	"$python" -c 'import pstats, sys
cut = lambda key: (key[0].replace(sys.argv[2] + "/", ""),) + key[1:]
s = pstats.Stats(sys.argv[1])
s.stats = dict((cut(k), (cc, nc, tt, ct, dict((cut(c), t) for c, t in callers.items())))
               for k, (cc, nc, tt, ct, callers) in s.stats.items())
s.dump_stats(sys.argv[1])' same.prof "$work/same_names" && cp same.prof "$out/same-names-3.11.prof")
golden "$python" same-names-3.11
# Keys of fresh strings in marshal version 2, as bench/gen-pstats.py lays
# them out: a string made anew is not interned, so marshal writes it whole
# where it writes an interned one as 't'. Every other function's name is
# made anew, so that callers' dicts mix keys the reader takes in place
# (known_plain_caller) with keys it reads item by item.
(cd "$work" && "$python" -c 'import marshal, sys
with open(sys.argv[1], "rb") as f:
    stats = marshal.load(f)
fresh = {}
def key(k):
    if k not in fresh:
        name = "".join(list(k[2])) if len(fresh) % 2 == 0 else k[2]
        fresh[k] = ("".join(list(k[0])), k[1], name)
    return fresh[k]
stats = dict((key(k), (cc, nc, tt, ct, dict((key(c), t) for c, t in callers.items())))
             for k, (cc, nc, tt, ct, callers) in stats.items())
with open(sys.argv[2], "wb") as f:
    marshal.dump(stats, f, 2)' "$out/cprofile-3.11.prof" "$out/cprofile-marshal2-3.11.prof")
golden "$python" cprofile-marshal2-3.11
for v in 3.8 3.12; do
	python=$(ls -d "$versions/$v".* | tail -n 1)/bin/python
	(cd "$work" && "$python" -m cProfile -o "$out/cprofile-imports-$v.prof" "$here/python/pstats_imports.py" > /dev/null)
	golden "$python" "cprofile-imports-$v"
done
(cd "$work" && /usr/bin/python3 -m cProfile -o "$out/cprofile-pytest.prof" -m pytest -q -p no:cacheprovider \
	"$here/python/pstats_pytest.py" > /dev/null)
golden /usr/bin/python3 cprofile-pytest
fi

# Refused inputs (testdata/invalid/pstats/): made by Python's marshal, or
# a real file changed, each breaking one rule of docs/formats/pstats.md.
# Their .err files are prof's messages, checked by hand.
invalid=$root/testdata/invalid/pstats
mkdir -p "$invalid"
python3 - "$invalid" "$out/cprofile-3.11.prof" <<'PY'
import marshal, sys
out, real = sys.argv[1], sys.argv[2]
def put(name, data):
    with open("%s/%s.prof" % (out, name), "wb") as f:
        f.write(data)
key, value = ("a.py", 1, "f"), (1, 1, 0.5, 0.5, {})
with open(real, "rb") as f:
    whole = f.read()
put("truncated", whole[: len(whole) // 2])
put("short-key", marshal.dumps({("a.py", 1): value}))
put("entry-of-four", marshal.dumps({key: (1, 1, 0.5, 0.5)}))
put("negative-time", marshal.dumps({key: (1, 1, -0.5, 0.5, {})}))
put("callers-not-dict", marshal.dumps({key: (1, 1, 0.5, 0.5, [])}))
put("caller-text", marshal.dumps({key: (1, 1, 0.5, 0.5, {("b.py", 2, "g"): "x"})}))
put("float-count", marshal.dumps({key: (1.5, 1, 0.5, 0.5, {})}))
put("key-twice", marshal.dumps({key: value, ("a.py", 1, "g"): (2, 2, 0.25, 0.25, {})}).replace(b"\x01g", b"\x01f"))
nested = 1
for _ in range(300):
    nested = (nested,)
put("nested-deep", marshal.dumps({key: (nested, 1, 0.5, 0.5, {})}))
put("unknown-type", b"\xfb)\x03\xfa\x04a.py\xe9\x01\x00\x00\x00Q0")
put("reference-past", b"\xfb)\x03\xfa\x04a.py\xe9\x01\x00\x00\x00r\x09\x00\x00\x000")
# Callers whose calls add up past 2^63 (each fits the 4 digits of 15
# bits a marshal long prof keeps): cProfile's tuples, the profile module's counts.
many = 2**60 - 1
put("callers-calls-overflow", marshal.dumps({key: (1, 1, 0.5, 0.5, {("c.py", i, "g%d" % i): (many, many, 0.0, 0.0) for i in range(9)})}))
put("bare-calls-overflow", marshal.dumps({key: (1, 1, 0.5, 0.5, {("c.py", i, "g%d" % i): many for i in range(9)})}))
put("code-layout", b"\xfb)\x03\xfa\x07profile\xe9\x00\x00\x00\x00\xe3" + b"\x00" * 28 + b"0")
PY
for f in "$invalid"/*.prof; do
	f=testdata/invalid/pstats/$(basename "$f")
	(cd "$root" && build/prof -f pstats -t pstats "$f" > /dev/null 2> "$f.err" || true)
done

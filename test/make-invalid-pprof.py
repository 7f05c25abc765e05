#!/usr/bin/env python3
"""Writes testdata/invalid/pprof/: small profile.proto files with one fault
each, from the list in shared/formats/pprof.md. test/run.sh checks that prof
refuses each with the message in its .err file and that Go's profile
package (test/dump.go) refuses it too."""
import gzip, os, sys

def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)

def key(field, wire): return varint(field << 3 | wire)
def ld(field, body): return key(field, 2) + varint(len(body)) + body
def vi(field, v): return key(field, 0) + varint(v)

STRINGS = [b"", b"samples", b"count", b"main"]
def strings(table=STRINGS): return b"".join(ld(6, s) for s in table)
SAMPLE_TYPE = ld(1, vi(1, 1) + vi(2, 2))
FUNCTION = ld(5, vi(1, 1) + vi(2, 3))
LOCATION = ld(4, vi(1, 1) + ld(4, vi(1, 1) + vi(2, 10)))
def sample(locs=(1,), values=(5,)):
    return ld(2, ld(1, b"".join(varint(l) for l in locs)) + ld(2, b"".join(varint(v) for v in values)))
VALID = SAMPLE_TYPE + sample() + LOCATION + FUNCTION + strings()

def gz(data): return gzip.compress(data, mtime=0)

cases = {
    "empty.pb": b"",
    "empty.pb.gz": gz(b""),
    "truncated.pb.gz": gz(VALID * 20)[:60],
    "bad-crc.pb.gz": (lambda d: d[:-8] + bytes([d[-8] ^ 1]) + d[-7:])(gz(VALID)),
    "no-string-table.pb": SAMPLE_TYPE + sample() + LOCATION + FUNCTION,
    "string0-not-empty.pb": SAMPLE_TYPE + sample() + LOCATION + FUNCTION + strings([b"x"] + STRINGS[1:]),
    "bad-string-index.pb": SAMPLE_TYPE + sample() + LOCATION + ld(5, vi(1, 1) + vi(2, 99)) + strings(),
    "unknown-function.pb": SAMPLE_TYPE + sample() + ld(4, vi(1, 1) + ld(4, vi(1, 9))) + FUNCTION + strings(),
    "unknown-location.pb": SAMPLE_TYPE + sample(locs=(9,)) + LOCATION + FUNCTION + strings(),
    "zero-id.pb": SAMPLE_TYPE + sample() + LOCATION + FUNCTION + ld(5, vi(2, 3)) + strings(),
    "duplicate-id.pb": SAMPLE_TYPE + sample() + LOCATION + LOCATION + FUNCTION + strings(),
    "value-count.pb": SAMPLE_TYPE + sample(values=(5, 6)) + LOCATION + FUNCTION + strings(),
    "no-sample-types.pb": sample() + LOCATION + FUNCTION + strings(),
    "wrong-wire-type.pb": vi(1, 7) + VALID,
    "group.pb": VALID + key(20, 3) + key(20, 4),
    "overlong-varint.pb": VALID + key(9, 0) + b"\x80" * 10 + b"\x01",
    "concatenated.pb": VALID + vi(9, 1) + VALID + vi(9, 2),
    "field-zero.pb": VALID + b"\x00" + VALID,
    "length-past-end.pb": VALID + key(2, 2) + varint(1000) + b"\x0a\x01",
}

out = sys.argv[1]
for name, data in cases.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)

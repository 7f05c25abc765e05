#!/usr/bin/env python3
"""A reference reading of a Firefox Profiler file, written from the formats'
documentation (docs/formats/firefox.md), apart from prof's reader:

  folded.py PROFILE PROF_FOLDED

Sums each stack's samples (their weights, where the file has them) over
every thread, and exits 0 when PROF_FOLDED (prof -s 0 -t folded of the same
file) sums to the same. prof names two functions of one name by their
places ("f (a.js:3)"); such a name counts as its function's own name here.
"""
import collections
import gzip
import json
import re
import sys

JS = re.compile(r'^(.*)\s+\((.*?)(?::(\d+))?(?::(\d+))?\)$')


def load(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return json.loads(data)


def gecko_rows(table):
    schema = table['schema']
    return [{k: (row[i] if i < len(row) else None) for k, i in schema.items()} for row in table['data']]


def gecko_name(location, wrapper):
    """A Gecko location's frame name; None where the DevTools panel hid it."""
    if re.fullmatch(r'0x[0-9a-fA-F]+', location):
        return None if wrapper else '0x%x' % int(location, 16)
    bare = re.sub(r'\)\[\d+\]$', ')', location)
    m = JS.match(bare)
    if wrapper:
        if not m or m.group(2).startswith('resource:') or m.group(2) == 'self-hosted' \
                or m.group(2).startswith('self-hosted:'):
            return None
        return m.group(1)
    return m.group(1) if m and m.group(3) else location


def gecko_threads(profile, wrapper, out):
    for t in profile.get('threads', []):
        strings = t['stringTable']
        frames = [gecko_name(strings[f['location']], wrapper) for f in gecko_rows(t['frameTable'])]
        stacks = []
        for s in gecko_rows(t['stackTable']):
            caller = stacks[s['prefix']] if s['prefix'] is not None else ()
            name = frames[s['frame']]
            stacks.append(caller + (name,) if name is not None else caller)
        for s in gecko_rows(t['samples']):
            if s['stack'] is not None:
                w = s.get('weight')
                out[stacks[s['stack']]] += 1 if w is None else w
    for p in profile.get('processes', []):
        gecko_threads(p, wrapper, out)


def processed_threads(profile, out):
    shared = profile.get('shared', {})
    for t in profile['threads']:
        strings = t.get('stringArray', shared.get('stringArray'))
        stack_table = t.get('stackTable', shared.get('stackTable'))
        frame_table = t.get('frameTable', shared.get('frameTable'))
        func_table = t.get('funcTable', shared.get('funcTable'))
        names = []
        for f, func in enumerate(frame_table['func']):
            name = strings[func_table['name'][func]]
            if re.fullmatch(r'0x[0-9a-fA-F]+', name):
                address = frame_table['address'][f]
                name = '0x%x' % (address if address is not None and address >= 0 else int(name, 16))
            names.append(name)
        stacks = []
        for i, frame in enumerate(stack_table['frame']):
            if 'prefixOffset' in stack_table:
                k = stack_table['prefixOffset'][i]
                prefix = None if k == 0 else i - k
            else:
                prefix = stack_table['prefix'][i]
            stacks.append((stacks[prefix] if prefix is not None else ()) + (names[frame],))
        samples = t['samples']
        weights = samples.get('weight') or [1] * len(samples['stack'])
        for stack, w in zip(samples['stack'], weights):
            if stack is not None:
                out[stacks[stack]] += 1 if w is None else w


def folded_name(name):
    return name.replace(';', ':').replace('\n', ' ').replace('\r', ' ')


def main():
    path, prof_folded = sys.argv[1:]
    doc = load(path)
    want = collections.Counter()
    if 'meta' in doc and 'preprocessedProfileVersion' in doc['meta']:
        processed_threads(doc, want)
    elif 'profile' in doc:
        gecko_threads(doc['profile'], True, want)
    else:
        gecko_threads(doc, False, want)
    summed = collections.Counter()
    for stack, n in want.items():
        if stack and n:
            summed[';'.join(folded_name(f) for f in stack)] += n
    names = {f for stack in summed for f in stack.split(';')}
    got = collections.Counter()
    with open(prof_folded) as f:
        for line in f:
            stack, n = line.rstrip('\n').rsplit(' ', 1)
            frames = []
            for frame in stack.split(';'):
                m = re.fullmatch(r'(.*) \(.*\)', frame)
                frames.append(m.group(1) if frame not in names and m and m.group(1) in names else frame)
            got[';'.join(frames)] += int(n)
    got = +got
    if got != +summed:
        for k in sorted(set(got) | set(summed)):
            if got[k] != summed[k]:
                print('%s: prof %d, reference %d' % (k[:200], got[k], summed[k]), file=sys.stderr)
        sys.exit(1)


main()

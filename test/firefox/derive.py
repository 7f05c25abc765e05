#!/usr/bin/env python3
"""Derives prof's Firefox test files from one Gecko profile that Firefox saved
(test/make-firefox-samples.sh runs it):

  derive.py GECKO.json PAGE_DIR OUT_DIR

- gecko.json.gz: Firefox's profile itself, its markers left out (they are
  most of its bytes and none of its samples) and the page's directory
  written as /prof/test/firefox/;
- devtools.json.gz: the profile of the content process that ran the page,
  in the wrapper Firefox's old DevTools Performance panel saved (label,
  duration, ..., profile, systemHost), as speedscope reads it; its JS
  locations without the source index Gecko 32 added ("[4]"), as Gecko
  wrote them while the panel existed;
- processed-v48.json.gz and processed-v70.json.gz: the whole profile in the
  processed format of profiler.firefox.com and samply, as its documentation
  (docs-developer/processed-profile-format.md, CHANGELOG-formats.md)
  describes versions 48 (per-thread tables and strings, `prefix`, `time`)
  and 70 (tables and strings under `shared`, `prefixOffset`,
  `timeDeltas`, consecutive equal samples merged into a `weight` as
  samply merges them, native frames unsymbolicated: addresses relative to
  their lib, as samply saves them, `lib` on the frame).
No program on Debian writes the processed format (samply is not packaged),
so these two are this script's, made by those documents' rules.
"""
import gzip
import json
import re
import sys

JS = re.compile(r'^(.*) \((.*?)(?::(\d+))?(?::(\d+))?\)(?:\[\d+\])?$')
ADDRESS = re.compile(r'^0x[0-9a-fA-F]+$')


def rows(table):
    """A Gecko table's rows as dicts by its schema; short rows padded with None."""
    schema = table['schema']
    out = []
    for row in table['data']:
        out.append({k: (row[i] if i < len(row) else None) for k, i in schema.items()})
    return out


def strip_markers(profile):
    for t in profile['threads']:
        t['markers']['data'] = []
    for p in profile.get('processes', []):
        strip_markers(p)


def rename_page(text, page_dir):
    return text.replace('file://' + page_dir.rstrip('/') + '/', 'file:///prof/test/firefox/')


def all_threads(profile, root_start):
    """(thread, libs, offset ms) for the profile's threads and its processes', depth first."""
    offset = profile['meta']['startTime'] - root_start
    for t in profile['threads']:
        yield t, profile.get('libs', []), offset
    for p in profile.get('processes', []):
        yield from all_threads(p, root_start)


class Processed:
    """The shared tables of a processed profile being built."""

    def __init__(self, libs_of=None):
        self.strings, self.string_index = [], {}
        # Libs are the profile's even where the tables are a thread's.
        self.libs_of = libs_of or self
        self.libs, self.lib_index = [], {}
        self.funcs, self.func_index = [], {}
        self.frames, self.frame_index = [], {}
        self.stacks, self.stack_index = [], {}

    def string(self, s):
        if s not in self.string_index:
            self.string_index[s] = len(self.strings)
            self.strings.append(s)
        return self.string_index[s]

    def lib(self, lib):
        if self.libs_of is not self:
            return self.libs_of.lib(lib)
        key = (lib['path'], lib.get('breakpadId', ''))
        if key not in self.lib_index:
            self.lib_index[key] = len(self.libs)
            self.libs.append({k: lib.get(k) for k in
                              ('name', 'path', 'debugName', 'debugPath', 'breakpadId', 'arch')})
            self.libs[-1]['codeId'] = None
        return self.lib_index[key]

    def func(self, name, file, line, col, lib):
        key = (name, file, line, col, lib)
        if key not in self.func_index:
            self.func_index[key] = len(self.funcs)
            self.funcs.append(key)
        return self.func_index[key]

    def frame(self, location, line, libs):
        """A Gecko location as the processed frame the profiler makes of it."""
        m = JS.match(location)
        address, lib = -1, None
        if ADDRESS.match(location):
            a = int(location, 16)
            for l in libs:
                if l['start'] <= a < l['end']:
                    lib = self.lib(l)
                    address = a - l['start'] + l.get('offset', 0)
                    break
            name = '0x%x' % address if lib is not None else location
            func = self.func(name, None, None, None, lib)
        elif m and m.group(3):
            func = self.func(m.group(1), m.group(2), int(m.group(3)),
                             int(m.group(4)) if m.group(4) else None, None)
        else:
            func = self.func(location, None, None, None, None)
        key = (func, address, line, lib)
        if key not in self.frame_index:
            self.frame_index[key] = len(self.frames)
            self.frames.append(key)
        return self.frame_index[key]

    def stack(self, prefix, frame):
        key = (prefix, frame)
        if key not in self.stack_index:
            self.stack_index[key] = len(self.stacks)
            self.stacks.append(key)
        return self.stack_index[key]

    def thread_samples(self, thread, libs):
        """The thread's samples as (processed stack or None, time ms)."""
        strings = thread['stringTable']
        frames = [self.frame(strings[f['location']], f.get('line'), libs) for f in rows(thread['frameTable'])]
        stacks = []
        for s in rows(thread['stackTable']):
            prefix = stacks[s['prefix']] if s['prefix'] is not None else None
            stacks.append(self.stack(prefix, frames[s['frame']]))
        return [(stacks[s['stack']] if s['stack'] is not None else None, s['time'])
                for s in rows(thread['samples'])]

    def func_table(self, sources):
        t = {'name': [], 'isJS': [], 'relevantForJS': [], 'resource': [], 'lineNumber': [],
             'columnNumber': [], 'length': len(self.funcs)}
        t['source' if sources is not None else 'fileName'] = []
        for name, file, line, col, lib in self.funcs:
            t['name'].append(self.string(name))
            t['isJS'].append(file is not None)
            t['relevantForJS'].append(False)
            t['resource'].append(lib if lib is not None else -1)
            t['lineNumber'].append(line)
            t['columnNumber'].append(col)
            if sources is None:
                t['fileName'].append(self.string(file) if file is not None else None)
            elif file is None:
                t['source'].append(None)
            else:
                sources['filename'].append(self.string(file))
                sources['uuid'].append(None)
                t['source'].append(len(sources['filename']) - 1)
        if sources is not None:
            sources['length'] = len(sources['filename'])
        return t

    def frame_table(self, lib_column):
        t = {'address': [], 'inlineDepth': [], 'category': [], 'subcategory': [], 'func': [],
             'nativeSymbol': [], 'innerWindowID': [], 'line': [], 'column': [], 'length': len(self.frames)}
        if lib_column:
            t['lib'] = []
        for func, address, line, lib in self.frames:
            for k, v in (('address', address), ('inlineDepth', 0), ('category', 0), ('subcategory', 0),
                         ('func', func), ('nativeSymbol', None), ('innerWindowID', 0), ('line', line),
                         ('column', None)):
                t[k].append(v)
            if lib_column:
                t['lib'].append(lib)
        return t

    def stack_table(self, offsets):
        t = {'frame': [f for _, f in self.stacks], 'category': [0] * len(self.stacks),
             'subcategory': [0] * len(self.stacks), 'length': len(self.stacks)}
        if offsets:
            t['prefixOffset'] = [0 if p is None else i - p for i, (p, _) in enumerate(self.stacks)]
        else:
            t['prefix'] = [p for p, _ in self.stacks]
        return t

    def resource_table(self, lib_column):
        libs = self.libs_of.libs
        t = {'name': [self.string(l['name']) for l in libs], 'host': [None] * len(libs),
             'type': [1] * len(libs), 'length': len(libs)}
        if lib_column:
            t['lib'] = list(range(len(libs)))
        return t


def merged(samples):
    """Consecutive samples of one stack as one, weighed by their number, timed by the first."""
    out = []
    for stack, time in samples:
        if out and out[-1][0] == stack:
            out[-1][2] += 1
        else:
            out.append([stack, time, 1])
    return out


def processed(gecko, version):
    p = Processed()
    root_start = gecko['meta']['startTime']
    threads = []
    for t, libs, offset in all_threads(gecko, root_start):
        # Version 48 keeps the tables in each thread, the libs in the profile.
        own = Processed(p) if version < 70 else p
        samples = [(s, time + offset) for s, time in own.thread_samples(t, libs)]
        thread = {'name': t['name'], 'processName': t.get('processName', ''), 'processType': t['processType'],
                  'pid': str(t['pid']), 'tid': t['tid'], 'isMainThread': t['name'] == 'GeckoMain',
                  'registerTime': t['registerTime'] + offset, 'unregisterTime': None,
                  'markers': {'data': [], 'name': [], 'startTime': [], 'endTime': [], 'phase': [],
                              'category': [], 'length': 0}}
        if version >= 70:
            rows_ = merged(samples)
            times = [r[1] for r in rows_]
            thread['samples'] = {'stack': [r[0] for r in rows_], 'weight': [r[2] for r in rows_],
                                 'weightType': 'samples',
                                 'timeDeltas': [t - (times[i - 1] if i else 0) for i, t in enumerate(times)],
                                 'length': len(rows_)}
        else:
            thread['samples'] = {'stack': [s for s, _ in samples], 'time': [t for _, t in samples],
                                 'weight': None, 'weightType': 'samples', 'length': len(samples)}
            thread.update({'stackTable': own.stack_table(False), 'frameTable': own.frame_table(False),
                           'funcTable': own.func_table(None), 'resourceTable': own.resource_table(True),
                           'stringArray': own.strings})
        threads.append(thread)
    meta = {k: gecko['meta'].get(k) for k in ('interval', 'startTime', 'product', 'stackwalk', 'platform',
                                               'oscpu', 'abi', 'misc', 'toolkit', 'categories')}
    meta.update({'version': gecko['meta']['version'], 'preprocessedProfileVersion': version,
                 'symbolicated': version < 70, 'markerSchema': [], 'processType': 0})
    out = {'meta': meta, 'libs': p.libs, 'pages': [], 'counters': [], 'threads': threads}
    if version >= 70:
        sources = {'uuid': [], 'filename': []}
        tables = {'stackTable': p.stack_table(True), 'frameTable': p.frame_table(True),
                  'funcTable': p.func_table(sources), 'resourceTable': p.resource_table(False),
                  'nativeSymbols': {'libIndex': [], 'address': [], 'name': [], 'functionSize': [], 'length': 0}}
        out['shared'] = dict(tables, sources=sources, stringArray=p.strings)
    return out


def devtools(gecko, page):
    """The content process that ran the page, wrapped as the old DevTools panel saved it."""
    for proc in gecko.get('processes', []):
        if any(page in s for t in proc['threads'] for s in t['stringTable']):
            # The panel was gone before Gecko 32 ended JS locations with a source index ("[4]").
            for t in proc['threads']:
                t['stringTable'] = [re.sub(r'\)\[\d+\]$', ')', s) for s in t['stringTable']]
            times = [s[t['samples']['schema']['time']] for t in proc['threads'] for s in t['samples']['data']]
            return {'label': 'busy', 'duration': max(times) if times else 0, 'markers': [], 'frames': [],
                    'memory': [], 'ticks': [],
                    'allocations': {'sites': [], 'timestamps': [], 'frames': [], 'sizes': []},
                    'profile': proc, 'configuration': {'withMarkers': True, 'withTicks': False,
                                                       'withMemory': False, 'withAllocations': False},
                    'systemHost': {'name': 'Firefox', 'version': gecko['meta'].get('misc', '')},
                    'systemClient': {}, 'fileType': 'Recorded Performance Data', 'version': 2}
    sys.exit('derive.py: no process ran ' + page)


def write(path, doc):
    with gzip.GzipFile(path, 'wb', mtime=0) as f:
        f.write(json.dumps(doc, separators=(',', ':')).encode())


def main():
    source, page_dir, out = sys.argv[1:]
    with open(source) as f:
        gecko = json.loads(rename_page(f.read(), page_dir))
    strip_markers(gecko)
    write(out + '/gecko.json.gz', gecko)
    write(out + '/devtools.json.gz', devtools(gecko, 'file:///prof/test/firefox/busy.html'))
    write(out + '/processed-v48.json.gz', processed(gecko, 48))
    write(out + '/processed-v70.json.gz', processed(gecko, 70))


main()

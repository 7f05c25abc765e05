"""prof's summary read against go tool pprof -top of the same profile.

Usage: summary_is_top.py SUMMARY TOP (the texts of `prof -t summary` and of
`go tool pprof -top -nodecount=100000 -nodefraction=0 -edgefraction=0`
with the same filters). Every function pprof lists must be in prof's by-self
table (in a difference: its change table) with the same flat and cum in
units and the same percentages, each within what the two printed forms
round away; prof must list no function with a value that pprof leaves out;
and the total pprof's percentages are of must be the summary's. Frames
with no function are left out: pprof names them by their mapping, prof by
their address (as folded stacks do). Exits 0 when
all agree, else prints the first disagreement and exits 1.
"""
import re
import sys

SCALE = {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9, 'mins': 60e9, 'hrs': 3600e9,
         'B': 1, 'kB': 1024, 'MB': 1024 ** 2, 'GB': 1024 ** 3, 'TB': 1024 ** 4, 'PB': 1024 ** 5, '': 1}
# A frame with no function: pprof names it by its mapping ("[app]"), prof by its address.
UNSYMBOLIZED = re.compile(r'^\[.*\]$')
ADDRESS = re.compile(r'^(0x[0-9a-f]+|<unknown>)$')
NUMBER = re.compile(r'^([-+]?)([0-9]*\.?[0-9]+)(?:e([-+]?[0-9]+))?([a-zA-Z]*)$')


def value(text):
    """A printed value as (number in the base unit, half its last printed digit)."""
    m = NUMBER.match(text)
    if not m or m.group(4) not in SCALE:
        raise ValueError('not a value: %r' % text)
    sign, digits, exponent, unit = m.groups()
    decimals = len(digits.split('.')[1]) if '.' in digits else 0
    scale = SCALE[unit] * 10 ** int(exponent or 0)
    number = float(digits) * scale * (-1 if sign == '-' else 1)
    return number, 0.5 * 10 ** -decimals * scale


def percent(text):
    """A percentage's magnitude: pprof prints none of a change's sign."""
    number, half = value(text.rstrip('%'))
    return abs(number), half


LABEL = re.compile(r'^[-+]?([0-9]+(?:\.[0-9]{1,2})?)(ns|us|ms|s|hrs|B|kB|MB|GB|TB|PB)$')


def in_units(text):
    """Is a value written as pprof writes one of a time or a size?"""
    m = LABEL.match(text)
    return text in ('0', '+0', '-0') or bool(m and (float(m.group(1)) >= 1 or m.group(2) in ('ns', 'B')))


def scaled(unit):
    """Is a sample type's unit (as the summary names it) a time or a size, in pprof's names?"""
    unit = unit.lower()
    unit = unit[:-1] if len(unit) > 2 and unit.endswith('s') else unit
    return unit in ('n', 'ns', 'nanosecond', 'us', 'microsecond', 'ms', 'millisecond', 's', 'sec', 'second',
                    'hour', 'hr', 'b', 'byte', 'kb', 'kbyte', 'kilobyte', 'mb', 'mbyte', 'megabyte',
                    'gb', 'gbyte', 'gigabyte', 'tb', 'tbyte', 'terabyte', 'pb', 'pbyte', 'petabyte')


def tells(lines):
    for line in lines:
        m = re.match(r'^Showing nodes accounting for (\S+), (\S+) of (\S+) total$', line)
        if m:
            return m.group(3) != '0' and (m.group(2) != '100%' or not re.match(r'^[-+0-9.]+$', m.group(3)))
    return False


def agree(a, b):
    (x, dx), (y, dy) = a, b
    return abs(x - y) <= dx + dy + 1e-9 * max(abs(x), abs(y))


def top_rows(lines):
    """pprof -top's rows: name -> (flat, flat%, cum, cum%); and its total."""
    rows, total = {}, None
    for line in lines:
        m = re.match(r'^Showing nodes accounting for .*, .* of (\S+) total$', line)
        if m:
            total = value(m.group(1))
            continue
        fields = line.split()
        if len(fields) < 6 or fields[0] == 'flat' or not fields[4].endswith('%'):
            continue
        name = line.split(None, 5)[5]
        name = re.sub(r' \(inline\)$', '', name)
        rows[name] = (value(fields[0]), percent(fields[1]), value(fields[3]), percent(fields[4]))
    return rows, total


def summary_rows(lines):
    """The summary's by-self (or change) rows as pprof's, and the total its percentages are of."""
    rows, total, table, unit, texts = {}, None, None, '', []
    for line in lines:
        m = re.match(r'^sample type:\s+.* \((.*)\)$', line)
        if m and table is None:
            unit = m.group(1)
        if line.startswith('by self:') or line.startswith('by change'):
            table = 'self' if line.startswith('by self') else 'change'
            continue
        if line.startswith('by total:') or not line.strip():
            table = None if line.startswith('by total:') else table
            continue
        m = re.match(r'^(total|base total):\s+(\S+)(.*)$', line)
        if m and table is None:
            whole = re.search(r"of (?:the whole profile's )?([-+0-9.]+[a-zA-Z]*)[,)]", m.group(3))
            if m.group(1) == 'base total' or total is None:
                total = value(whole.group(1) if whole else m.group(2))
            continue
        fields = line.split()
        if fields and fields[0] in ('self', 'flat'):
            continue
        if table == 'self' and len(fields) >= 5 and fields[1].endswith('%'):
            texts += [fields[0], fields[2]]
            rows[line.split(None, 4)[4]] = (value(fields[0]), percent(fields[1]), value(fields[2]), percent(fields[3]))
        elif table == 'change' and len(fields) >= 9 and fields[3].endswith('%'):
            texts += [fields[i] for i in (0, 1, 2, 4, 5, 6)]
            rows[line.split(None, 8)[8]] = (value(fields[2]), percent(fields[3]), value(fields[6]), percent(fields[7]))
    if scaled(unit):
        texts = [t for t in texts if not in_units(t)]
        if texts:
            raise ValueError('not in units: %r' % texts[0])
    return rows, total


def main():
    if sys.argv[1] == '--tells':
        with open(sys.argv[2], encoding='utf-8') as f:
            return 0 if tells(f.read().splitlines()) else 1
    with open(sys.argv[1], encoding='utf-8') as f:
        try:
            mine, my_total = summary_rows(f.read().splitlines())
        except ValueError as e:
            print(e)
            return 1
    with open(sys.argv[2], encoding='utf-8') as f:
        theirs, their_total = top_rows(f.read().splitlines())
    if their_total is None or my_total is None or not agree(my_total, their_total):
        print('totals differ: prof %r, pprof %r' % (my_total, their_total))
        return 1
    for name, want in theirs.items():
        if UNSYMBOLIZED.match(name):
            continue
        got = mine.get(name)
        if got is None or not all(agree(g, w) for g, w in zip(got, want)):
            print('%s: prof %r, pprof %r' % (name, got, want))
            return 1
    for name, got in mine.items():
        if name not in theirs and (got[0][0] or got[2][0]) and not ADDRESS.match(name):
            print('%s: prof %r, not in pprof\'s' % (name, got))
            return 1
    return 0


sys.exit(main())

// The report page's script (-t html): reads the JSON block formats/html_write.c
// wrote (id "data") and draws the views from it. docs/formats/html.md says
// what each view shows and where its numbers come from; none is computed
// here but sums of the writer's per-stack values and sum% (a running total
// of flat, as go tool pprof -top prints it). Values are written in units
// and percentages of each type's percent_of, as -t summary writes them. The state (view, sample type,
// selected function, search, sort) is kept in the URL fragment, so a link
// reopens what was seen. Pictures are the flame writers' own SVGs, kept
// gzip-compressed and inflated when first shown.
'use strict';

var D = JSON.parse(document.getElementById('data').textContent);
var names = D.names;
var state = { view: 'top', type: D.default_type, fn: null, q: '', sort: 'flat', asc: false, rows: 200 };
var views = [
	['top', 'Top', true],
	['flame', 'Flame graph', D.types.length > 0],
	['chart', 'Flame chart', D.timed],
	['tree', 'Call tree', D.types.length > 0],
	['bottom', 'Bottom-up', D.types.length > 0],
	['lines', 'Source lines', D.lines.length > 0],
	['sprof', 'sprof', D.sprof !== null || D.distinct_stacks > 100000]
].filter(function (v) { return v[2]; });
var main, searchBox, typeBox, pictures = {}, trees = {};

function el(tag, attrs, children) {
	var e = document.createElement(tag);
	Object.keys(attrs || {}).forEach(function (k) {
		if (k === 'text') e.textContent = attrs[k];
		else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), attrs[k]);
		else e.setAttribute(k, attrs[k]);
	});
	(children || []).forEach(function (c) { if (c) e.appendChild(c); });
	return e;
}

// A value in `unit` as a person reads it: render/units.c's units_label
// (go tool pprof's ScaledLabel), times and sizes scaled to the largest
// unit they hold one of, two decimals, ".00" dropped; else null.
var unitFamilies = [
	[['ns', 'ns nanosecond', 1], ['us', 'us microsecond', 1e3], ['ms', 'ms millisecond', 1e6],
		['s', 's sec second', 1e9], ['hrs', 'hour hr', 3600e9]],
	[['B', 'b byte', 1], ['kB', 'kb kbyte kilobyte', 1024], ['MB', 'mb mbyte megabyte', Math.pow(1024, 2)],
		['GB', 'gb gbyte gigabyte', Math.pow(1024, 3)], ['TB', 'tb tbyte terabyte', Math.pow(1024, 4)],
		['PB', 'pb pbyte petabyte', Math.pow(1024, 5)]]
];
// x with two decimals as C's printf (and Go's) writes it: rounded by its
// exact binary value (38445000 / 1e6 is a little above 38.445, so 38.45),
// an exact tie (1.125) to the even digit, where toFixed rounds it up.
function fixed2(x) {
	var exact = Math.abs(x).toFixed(100), dot = exact.indexOf('.');
	var kept = exact.slice(0, dot + 3), rest = exact.slice(dot + 3), tie = '5' + '0'.repeat(rest.length - 1);
	var up = rest > tie || (rest === tie && Number(kept.slice(-1)) % 2 === 1);
	var cents = (BigInt(kept.replace('.', '')) + (up ? 1n : 0n)).toString().padStart(3, '0');
	return (x < 0 ? '-' : '') + cents.slice(0, -2) + '.' + cents.slice(-2);
}
function unitLabel(value, unit) {
	var name = unit.toLowerCase();
	if (name.length > 2 && name.slice(-1) === 's') name = name.slice(0, -1);
	for (var f = 0; f < unitFamilies.length; f++) {
		var family = unitFamilies[f];
		var from = family.find(function (u) { return u[1].split(' ').indexOf(name) >= 0; });
		if (!from) continue;
		var base = value * from[2], to = from;
		family.forEach(function (u) { if (Math.abs(base) / u[2] >= 1) to = u; });
		var number = fixed2(base / to[2]).replace(/\.00$/, '');
		return number === '0' || number === '-0' ? '0' : number + to[0];
	}
	return null;
}

// A value of the chosen type as the summary writes it: in units, or a count with its decimals.
function fmt(v) {
	var type = D.types[state.type], d = type.decimals;
	var label = unitLabel(v / Math.pow(10, d), type.unit);
	if (label !== null) return label;
	if (!d) return String(v);
	var s = String(Math.abs(v)).padStart(d + 1, '0');
	return (v < 0 ? '-' : '') + s.slice(0, -d) + '.' + s.slice(-d);
}

// Of what the summary's percentages are of: the whole profile under a filter, the base in a difference.
function pct(v) {
	var total = D.types[state.type].percent_of;
	return (total ? 100 * v / total : 0).toFixed(2) + '%';
}

function pattern() {
	if (!state.q) return null;
	try { return new RegExp(state.q); } catch (e) { return null; }
}

// ---- the URL fragment ----

function save() {
	var p = new URLSearchParams();
	p.set('view', state.view);
	if (D.types.length) p.set('type', D.types[state.type].name);
	if (state.fn !== null) p.set('fn', state.fn);
	if (state.q) p.set('q', state.q);
	if (state.sort !== 'flat' || state.asc) p.set('sort', (state.asc ? '+' : '-') + state.sort);
	history.replaceState(null, '', '#' + p.toString());
}

function restore() {
	var p = new URLSearchParams(location.hash.slice(1));
	if (views.some(function (v) { return v[0] === p.get('view'); })) state.view = p.get('view');
	D.types.forEach(function (t, i) { if (t.name === p.get('type')) state.type = i; });
	state.fn = p.get('fn');
	state.q = p.get('q') || '';
	var sort = p.get('sort');
	if (sort) { state.asc = sort[0] === '+'; state.sort = sort.slice(1); }
}

// ---- the page around the views ----

function header() {
	var h = el('header', {}, [
		el('h1', { text: 'prof report: ' + D.source + (D.diff ? ' minus ' + D.diff_base + ' (a difference)' : '') },
			[el('span', { class: 'format', text: ' ' + D.format })])
	]);
	var controls = el('div', { class: 'controls' });
	typeBox = el('select', { id: 'type', title: 'sample type: every view switches to it',
		onchange: function () { state.type = Number(typeBox.value); show(); } });
	D.types.forEach(function (t, i) {
		typeBox.appendChild(el('option', { value: i, text: t.name + ' (' + t.unit + ')' }));
	});
	searchBox = el('input', { id: 'search', type: 'search', placeholder: 'search: a regular expression',
		oninput: function () { state.q = searchBox.value; searchBox.classList.toggle('bad', state.q && !pattern()); show(); } });
	controls.appendChild(el('label', { text: 'sample type ' }, [typeBox]));
	controls.appendChild(searchBox);
	controls.appendChild(el('span', { id: 'selected' }));
	h.appendChild(controls);
	h.appendChild(el('dl', { id: 'summary' }));
	var nav = el('nav', { id: 'tabs' });
	views.forEach(function (v) {
		nav.appendChild(el('button', { 'data-view': v[0], text: v[1],
			onclick: function () { state.view = v[0]; show(); } }));
	});
	document.body.appendChild(h);
	document.body.appendChild(nav);
	main = el('main', { id: 'view' });
	document.body.appendChild(main);
}

// The summary's header for the type: "label: value" lines.
function summary() {
	var dl = document.getElementById('summary');
	dl.textContent = '';
	var text = D.header[state.type] || 'no samples\n';
	text.split('\n').forEach(function (line) {
		var at = line.indexOf(':');
		if (at < 0) return;
		dl.appendChild(el('div', {}, [el('dt', { text: line.slice(0, at) }), el('dd', { text: line.slice(at + 1).trim() })]));
	});
	if (D.duration_nanos)
		dl.appendChild(el('div', {}, [el('dt', { text: 'duration' }), el('dd', { text: unitLabel(Number(D.duration_nanos), 'nanoseconds') })]));
	if (D.n_warnings) {
		var list = el('ul', {}, D.warnings.map(function (w) { return el('li', { text: w }); }));
		if (D.n_warnings > D.warnings.length) list.appendChild(el('li', { text: (D.n_warnings - D.warnings.length) + ' more' }));
		dl.appendChild(el('details', { id: 'warnings' }, [el('summary', { text: D.n_warnings + ' warning' + (D.n_warnings > 1 ? 's' : '') }), list]));
	}
}

function show() {
	save();
	typeBox.value = state.type;
	if (searchBox.value !== state.q) searchBox.value = state.q;
	summary();
	var chip = document.getElementById('selected');
	chip.textContent = '';
	if (state.fn !== null)
		chip.append('selected: ', el('code', { text: state.fn }), el('button', { title: 'clear the selection', text: '\u00d7',
			onclick: function () { select(null); } }));
	document.querySelectorAll('#tabs button').forEach(function (b) {
		b.classList.toggle('on', b.getAttribute('data-view') === state.view);
	});
	main.textContent = '';
	document.body.dataset.ready = '0';
	var draw = { top: topView, flame: flameView, chart: flameView, tree: treeView, bottom: treeView, lines: linesView, sprof: sprofView }[state.view];
	var done = draw(main);
	if (done && done.then) done.then(ready); else ready();
}

function ready() { document.body.dataset.ready = '1'; }

function select(name) {
	state.fn = name;
	show();
}

function note(text) { return el('p', { class: 'note', text: text }); }

// ---- Top: functions by flat and cum, and the selected one's callers and callees ----

var columns = [['flat'], ['flat%'], ['sum%'], ['cum'], ['cum%'], ['name']];

function functionRows() {
	var nt = D.types.length, t = state.type, re = pattern();
	var rows = D.functions.map(function (f) { return { name: names[f[0]], flat: f[1 + t], cum: f[1 + nt + t] }; })
		.filter(function (f) { return (f.flat || f.cum) && (!re || re.test(f.name)); });
	var key = state.sort.replace('%', ''), other = key === 'cum' ? 'flat' : 'cum';
	function byName(a, b) { return a.name < b.name ? -1 : a.name > b.name ? 1 : 0; }
	rows.sort(function (a, b) {
		var c = key === 'name' ? byName(a, b) : a[key] - b[key] || a[other] - b[other];
		return (state.asc ? c : -c) || byName(a, b);
	});
	return rows;
}

function topView(into) {
	var rows = functionRows(), sum = 0;
	var head = el('tr', {}, columns.map(function (c) {
		var mark = state.sort === c[0] ? (state.asc ? ' \u25b2' : ' \u25bc') : '';
		return el('th', { class: c[0] === 'name' ? 'name' : 'num', text: c[0] + mark,
			onclick: function () {
				if (c[0] === 'sum%') return;
				state.asc = state.sort === c[0] ? !state.asc : c[0] === 'name';
				state.sort = c[0];
				show();
			} });
	}));
	var body = el('tbody');
	var table = el('table', { id: 'top', class: 'data' }, [el('thead', {}, [head]), body]);
	rows.slice(0, state.rows).forEach(function (f) {
		sum += f.flat;
		var tr = el('tr', { class: f.name === state.fn ? 'selected' : '', onclick: function () { select(f.name); } }, [
			el('td', { class: 'num', text: fmt(f.flat) }), bar(f.flat), el('td', { class: 'num', text: pct(sum) }),
			el('td', { class: 'num', text: fmt(f.cum) }), bar(f.cum), el('td', { class: 'name', text: f.name })
		]);
		body.appendChild(tr);
	});
	var box = el('div', { class: 'split' }, [el('div', { class: 'main' }, [table])]);
	if (rows.length > state.rows)
		box.firstChild.appendChild(el('button', { class: 'more', text: 'show ' + Math.min(1000, rows.length - state.rows) +
			' more of ' + (rows.length - state.rows), onclick: function () { state.rows += 1000; show(); } }));
	if (D.functions_left_out)
		box.firstChild.appendChild(note(D.functions_left_out + ' functions with the smallest shares are not in the page.'));
	if (state.fn !== null) box.appendChild(peek(state.fn));
	into.appendChild(box);
}

function bar(v) {
	var total = Math.abs(D.types[state.type].percent_of) || 1, w = Math.min(100, 100 * Math.abs(v) / total);
	return el('td', { class: 'num pc' }, [el('span', { class: 'bar', style: 'width:' + (w * 0.6).toFixed(1) + 'px' }),
		document.createTextNode(pct(v))]);
}

// pprof's peek: the function's callers and callees, each edge counted once per stack.
function peek(name) {
	var t = state.type, id = names.indexOf(name), callers = [], callees = [];
	D.edges.forEach(function (e) {
		var w = e[2 + t];
		if (!w) return;
		if (e[1] === id) callers.push([names[e[0]], w]);
		if (e[0] === id) callees.push([names[e[1]], w]);
	});
	var f = D.functions.find(function (r) { return r[0] === id; });
	var nt = D.types.length;
	function list(title, items) {
		items.sort(function (a, b) { return b[1] - a[1]; });
		return el('table', { class: 'data peek-' + title }, [el('thead', {}, [el('tr', {}, [
			el('th', { class: 'num', text: title }), el('th', { class: 'num', text: '%' }), el('th', { class: 'name', text: '' })])]),
			el('tbody', {}, items.map(function (i) {
				return el('tr', { onclick: function () { select(i[0]); } }, [
					el('td', { class: 'num', text: fmt(i[1]) }), el('td', { class: 'num', text: pct(i[1]) }),
					el('td', { class: 'name', text: i[0] })]);
			}))]);
	}
	return el('aside', { id: 'peek' }, [
		el('h2', { text: name }),
		el('p', { text: f ? 'flat ' + fmt(f[1 + t]) + ' (' + pct(f[1 + t]) + '), cum ' + fmt(f[1 + nt + t]) + ' (' + pct(f[1 + nt + t]) + ')' : '' }),
		el('div', { class: 'links' }, views.filter(function (v) { return v[0] !== 'top' && v[0] !== 'sprof'; }).map(function (v) {
			return el('button', { text: 'in ' + v[1], onclick: function () { state.view = v[0]; show(); } });
		})),
		list('callers', callers), list('callees', callees)
	]);
}

// ---- Flame graph and chart: the writers' SVGs ----

function inflate(base64) {
	var bytes = Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
	var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
	return new Response(stream).text();
}

// A picture's SVG text, inflated once.
function picture(kind, t) {
	var key = kind + t;
	if (!pictures[key])
		pictures[key] = inflate((kind === 'sprofplot' ? [D.sprofplot] : D[kind])[t]);
	return pictures[key];
}

// The flame pictures run their own script (render/flame.js) in a frame of
// their own; a srcdoc frame shares the page's origin, so that the page can
// size it and search in it, which a file: page cannot do with a blob's.
function flameDocument(svg) {
	return '<!DOCTYPE html><html><head><meta charset="utf-8"><style>body { margin: 0; }</style></head>' +
		'<body onload="init()">' + svg.slice(svg.indexOf('<svg')).replace(' onload="init(evt)"', '') + '</body></html>';
}

function flameView(into) {
	var kind = state.view === 'flame' ? 'flamegraph' : 'flamechart';
	if (!D[kind][state.type]) {
		into.appendChild(note('No ' + (kind === 'flamegraph' ? 'flame graph' : 'flame chart') + ' of ' +
			D.types[state.type].name + ': it has no samples, or negative ones.'));
		return null;
	}
	var frame = el('iframe', { id: 'picture', title: kind });
	into.appendChild(frame);
	return picture(kind, state.type).then(function (svg) {
		return new Promise(function (done) {
			frame.onload = function () {
				svg = frame.contentDocument.querySelector('svg');
				frame.style.width = svg.getAttribute('width') + 'px';
				frame.style.height = svg.getAttribute('height') + 'px';
				var term = state.fn !== null ? '^' + state.fn.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$' : state.q;
				if (term && pattern() !== null || state.fn !== null) frame.contentWindow.search(term);
				done();
			};
			frame.srcdoc = flameDocument(svg);
		});
	});
}

// ---- Call trees: top-down and bottom-up ----

function treeOf(which) {
	if (trees[which]) return trees[which];
	var nodes = D[which].map(function (n, i) { return { i: i, parent: n[0], name: names[n[1]] || 'all', v: n, children: [] }; });
	nodes.forEach(function (n) { if (n.parent >= 0) nodes[n.parent].children.push(n); });
	return (trees[which] = nodes);
}

function treeView(into) {
	var which = state.view === 'tree' ? 'top_down' : 'bottom_up';
	var nodes = treeOf(which), nt = D.types.length, t = state.type, re = pattern();
	var open = {}, all = {};
	function self(n) { return n.v[2 + t]; }
	function total(n) { return n.v[2 + nt + t]; }
	// Opened: the first two levels, and every path to the selected function (or a match).
	nodes.forEach(function (n) {
		var hit = (state.fn !== null && n.name === state.fn) || (re && n.parent >= 0 && re.test(n.name));
		if (hit && total(n)) for (var p = n.parent; p >= 0; p = nodes[p].parent) open[p] = true;
	});
	open[0] = true;
	nodes[0].children.forEach(function (c) { open[c.i] = true; });
	var body = el('tbody');
	function row(n, depth) {
		var kids = n.children.filter(function (c) { return total(c) || self(c); })
			.sort(function (a, b) { return total(b) - total(a) || (a.name < b.name ? -1 : 1); });
		var mark = kids.length ? (open[n.i] ? '\u25be ' : '\u25b8 ') : '\u2003';
		var cls = (n.name === state.fn ? 'selected' : '') + (re && re.test(n.name) ? ' match' : '');
		var tr = el('tr', { class: cls, 'data-depth': depth }, [
			el('td', { class: 'num', text: fmt(self(n)) }), el('td', { class: 'num', text: pct(self(n)) }),
			el('td', { class: 'num', text: fmt(total(n)) }), bar(total(n)),
			el('td', { class: 'name tree', style: 'padding-left:' + (0.3 + depth * 1.1) + 'em' },
				[el('span', { class: 'toggle', text: mark }), el('span', { text: n.name })])
		]);
		tr.addEventListener('click', function (e) {
			if (e.target.classList.contains('toggle') || n.i === 0) { open[n.i] = !open[n.i]; redraw(); }
			else if (n.i !== 0) select(n.name);
		});
		body.appendChild(tr);
		var many = open[n.i] && kids.length > 100 && !all[n.i];
		if (open[n.i]) kids.slice(0, many ? 100 : kids.length).forEach(function (c) { row(c, depth + 1); });
		if (many)
			body.appendChild(el('tr', { class: 'elided', onclick: function () { all[n.i] = true; redraw(); } }, [el('td', {}), el('td', {}),
				el('td', {}), el('td', {}), el('td', { class: 'name', style: 'padding-left:' + (1.4 + depth * 1.1) + 'em',
					text: 'show ' + (kids.length - 100) + ' more callees here' })]));
		var shown = kids.reduce(function (s, c) { return s + total(c); }, self(n));
		if (open[n.i] && total(n) - shown)
			body.appendChild(el('tr', { class: 'elided' }, [el('td', {}), el('td', {}), el('td', { class: 'num', text: fmt(total(n) - shown) }),
				el('td', {}), el('td', { class: 'name', style: 'padding-left:' + (1.4 + depth * 1.1) + 'em', text: '(narrow frames left out)' })]));
	}
	function redraw() { body.textContent = ''; row(nodes[0], 0); }
	redraw();
	var buttons = el('div', { class: 'links' }, [
		el('button', { id: 'open-all', text: 'open all', title: 'open every frame (the page may take a moment on a large tree)',
			onclick: function () { nodes.forEach(function (n) { open[n.i] = true; }); redraw(); } }),
		el('button', { text: 'close all', onclick: function () { open = { 0: true }; redraw(); } })
	]);
	into.appendChild(buttons);
	into.appendChild(note(which === 'top_down'
		? 'Top-down: callers above their callees; total counts the samples under a frame, self those where it is the leaf.'
		: 'Bottom-up: each leaf function, then who called it; total counts the samples whose stack ends with this path.'));
	into.appendChild(el('table', { id: 'calltree', class: 'data' }, [el('thead', {}, [el('tr', {}, [
		el('th', { class: 'num', text: 'self' }), el('th', { class: 'num', text: 'self%' }),
		el('th', { class: 'num', text: 'total' }), el('th', { class: 'num', text: 'total%' }), el('th', { class: 'name', text: 'function' })])]), body]));
	if (D[which + '_left_out'])
		into.appendChild(note(D[which + '_left_out'] + ' frames with the smallest shares are not in the page.'));
}

// ---- Source lines: the hottest lines per file ----

function linesView(into) {
	var nt = D.types.length, t = state.type, re = pattern(), files = {};
	D.lines.forEach(function (l) {
		var file = names[l[0]];
		if (re && !re.test(file + ':' + l[1])) return;
		var f = files[file] = files[file] || { name: file, lines: [], self: 0, most: 0 };
		f.lines.push({ line: l[1], self: l[2 + t], total: l[2 + nt + t] });
		f.self += l[2 + t];
		f.most = Math.max(f.most, l[2 + nt + t]);
	});
	var sorted = Object.keys(files).map(function (k) { return files[k]; })
		.sort(function (a, b) { return b.self - a.self || b.most - a.most || (a.name < b.name ? -1 : 1); });
	sorted.slice(0, state.rows / 10).forEach(function (f) {
		var hot = f.lines.filter(function (l) { return l.self || l.total; })
			.sort(function (a, b) { return b.total - a.total || b.self - a.self || a.line - b.line; });
		if (!hot.length) return;
		into.appendChild(el('h2', { text: f.name }));
		into.appendChild(el('table', { class: 'data lines' }, [el('thead', {}, [el('tr', {}, ['line', 'self', 'self%', 'total', 'total%'].map(function (h) {
			return el('th', { class: 'num', text: h });
		}))]), el('tbody', {}, hot.slice(0, 50).map(function (l) {
			return el('tr', {}, [el('td', { class: 'num', text: l.line }), el('td', { class: 'num', text: fmt(l.self) }), bar(l.self),
				el('td', { class: 'num', text: fmt(l.total) }), bar(l.total)]);
		}))]));
	});
	if (sorted.length > state.rows / 10)
		into.appendChild(el('button', { class: 'more', text: 'show ' + Math.min(100, sorted.length - state.rows / 10) + ' more of ' +
			(sorted.length - state.rows / 10) + ' files', onclick: function () { state.rows += 1000; show(); } }));
	if (D.lines_left_out) into.appendChild(note(D.lines_left_out + ' lines with the smallest shares are not in the page.'));
}

// ---- sprof: its tables (TSV) and plots ----

function sprofView(into) {
	if (D.sprof === null) {
		into.appendChild(note('sprof\'s views are per stack: with ' + D.distinct_stacks + ' distinct stacks they are not in ' +
			'the page (more than 100000); prof -t sprof and -t sprofplot write them.'));
		return null;
	}
	into.appendChild(note('sprof\'s tables and plots count ' + D.types[D.default_type].name +
		', the type the page opened on (a link with another type opens on that one); at most ' +
		'300 rows of each table are in the page.'));
	D.sprof.split('\n# ').forEach(function (part) {
		var rows = part.replace(/^# /, '').split('\n').filter(function (l) { return l; });
		if (rows.length < 2) return;
		// sprof's times are seconds: in units as the summary's; NA where the records have none.
		var heads = rows[1].split('\t');
		function cell(c, i) {
			var seconds = /time$/.test(heads[i]) && c !== 'NA' && c !== '';
			return el('td', { text: seconds ? unitLabel(Number(c), 'seconds') : c });
		}
		into.appendChild(el('h2', { text: rows[0] }));
		into.appendChild(el('table', { class: 'data sprof' }, [
			el('thead', {}, [el('tr', {}, heads.map(function (c) { return el('th', { text: c }); }))]),
			el('tbody', {}, rows.slice(2).map(function (r) {
				return el('tr', {}, r.split('\t').map(cell));
			}))]));
	});
	if (!D.sprofplot) return null;
	var img = el('img', { id: 'sprofplot', alt: 'sprof plots' });
	into.appendChild(img);
	return picture('sprofplot', 0).then(function (svg) {
		return new Promise(function (done) {
			img.onload = done;
			img.onerror = done;
			img.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
		});
	});
}

header();
restore();
window.addEventListener('hashchange', function () { restore(); show(); });
show();

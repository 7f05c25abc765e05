// The interaction of prof's flame graphs and flame charts, built into the
// SVG (render/flame.c writes it inside a CDATA section, so it must never
// hold the three characters that close one). docs/formats/flamegraph.md
// says why it is ours and what it relies on:
//  - the first box in #frames is the root; every other box follows its
//    parent, and a subtree is contiguous: in file order for a flame graph,
//    in order of first sample (data-first) for a flame chart;
//  - a chart of threads has a lane per thread (data-lane): each lane's
//    first box is its root, depths count from it, first samples count in
//    it; with no zoom every lane shows, a zoom shows its box's lane;
//  - a chart in time has a time axis (#axis, data-ns: the time across the
//    boxes' width), whose ticks a zoom writes again for the zoomed span;
//  - a box is <g data-count><title>NAME (AMOUNT, PERCENT%)</title><rect/>
//    <text/></g>, one frame height per level of depth; the counts summed
//    are data-count's, exact, and the layout (margin, frame height, font
//    size and width of a character, label offset) is the <svg>'s data-*,
//    as render/flame.c drew the boxes; data-percent-of is the whole the
//    titles' percentages are of (the whole profile's under a filter).
// Hover shows a box's title, a click zooms to it (a click on a dimmed
// ancestor, Reset Zoom or Escape goes back), Search (or Ctrl-F) highlights
// a regular expression and shows the share of that whole it matches, each
// matched subtree counted once. Zoom and search are kept in the URL query
// (x and y of the zoomed box's rect, s the search, i ignore case).
'use strict';

var MATCH_FILL = 'rgb(230,0,230)';
var frameHeight, pad, charWidth, labelX;
var boxes = [];
var zoomed = null, term = '', ignoreCase = false, width, percentOf;
var details, matched, unzoomButton, searchButton, caseButton;

function init() {
	// The first <svg>: the document itself, or the page an HTML report puts it in.
	var svg = document.querySelector('svg');
	width = parseFloat(svg.getAttribute('width'));
	pad = Number(svg.getAttribute('data-pad'));
	frameHeight = Number(svg.getAttribute('data-frame-height'));
	charWidth = Number(svg.getAttribute('data-font-size')) * Number(svg.getAttribute('data-char-em'));
	labelX = Number(svg.getAttribute('data-label-x'));
	percentOf = Number(svg.getAttribute('data-percent-of'));
	details = document.getElementById('details').firstChild;
	matched = document.getElementById('matched').firstChild;
	unzoomButton = document.getElementById('unzoom');
	searchButton = document.getElementById('search');
	caseButton = document.getElementById('ignorecase');
	readBoxes();
	var frames = document.getElementById('frames');
	frames.addEventListener('mouseover', function (e) {
		var b = boxOf(e.target);
		if (b) details.nodeValue = describe(b);
	});
	frames.addEventListener('mouseout', function () { details.nodeValue = ' '; });
	frames.addEventListener('click', function (e) {
		var b = boxOf(e.target);
		if (b) zoom(b);
	});
	unzoomButton.addEventListener('click', function () { zoom(null); });
	searchButton.addEventListener('click', function () { if (term) search(''); else askSearch(); });
	caseButton.addEventListener('click', toggleCase);
	window.addEventListener('keydown', onKey);
	restore();
}

function readBoxes() {
	var gs = document.getElementById('frames').children;
	for (var i = 0; i < gs.length; i++) {
		var g = gs[i], rect = g.querySelector('rect'), title = g.querySelector('title').textContent;
		boxes.push({
			g: g, rect: rect, label: g.querySelector('text'), title: title,
			name: title.slice(0, title.lastIndexOf(' (')),
			count: Number(g.getAttribute('data-count')),
			xText: rect.getAttribute('x'), yText: rect.getAttribute('y'),
			x: parseFloat(rect.getAttribute('x')), width: parseFloat(rect.getAttribute('width')),
			fill: rect.getAttribute('fill'), elided: g.classList.contains('elided'),
			first: Number(g.getAttribute('data-first')), length: Number(g.getAttribute('data-len')),
			lane: Number(g.getAttribute('data-lane') || 0)
		});
	}
	var rootY = {};
	boxes.forEach(function (b) {
		if (!(b.lane in rootY))
			rootY[b.lane] = parseFloat(b.yText);
		b.depth = Math.round(Math.abs(parseFloat(b.yText) - rootY[b.lane]) / frameHeight);
		b.g.box = b;
	});
	if (boxes[0].first)
		boxes.sort(function (a, b) { return a.lane - b.lane || a.first - b.first || a.depth - b.depth; });
	linkSubtrees();
}

// Each box's index, and `end`: its subtree is boxes[index .. end).
function linkSubtrees() {
	var open = [];
	boxes.forEach(function (b, i) {
		while (open.length && open[open.length - 1].depth >= b.depth)
			open.pop().end = i;
		b.index = i;
		open.push(b);
	});
	while (open.length)
		open.pop().end = boxes.length;
}

function boxOf(node) {
	while (node && !node.box)
		node = node.parentNode;
	return node ? node.box : null;
}

function describe(b) {
	var text = 'Function: ' + b.title;
	if (b.first)
		text += ', samples ' + b.first + (b.length > 1 ? '\u2013' + (b.first + b.length - 1) : '');
	return text;
}

// flamegraph.pl's label: the characters that fit at 0.59 em, cut with "..", none under 3.
function fit(name, w) {
	var chars = Math.floor(w / charWidth), all = Array.from(name);
	if (chars < 3)
		return '';
	return all.length <= chars ? name : all.slice(0, chars - 2).join('') + '..';
}

function place(b, x, w) {
	b.rect.setAttribute('x', x.toFixed(1));
	b.rect.setAttribute('width', w.toFixed(1));
	b.label.setAttribute('x', (x + labelX).toFixed(2));
	b.label.textContent = fit(b.name, w);
}

// Zooms to b and its subtree (null: the whole picture); b's ancestors span the width, dimmed.
function zoom(b) {
	var root = boxes[0];
	zoomed = b === root ? null : b;
	var target = zoomed || root, scale = (width - 2 * pad) / target.width;
	boxes.forEach(function (e) {
		var inside = zoomed ? e.index >= target.index && e.index < target.end : true;
		var above = e.index < target.index && target.index < e.end;
		e.g.classList.toggle('hide', !inside && !above);
		e.g.classList.toggle('parent', above);
		if (inside)
			place(e, pad + (e.x - target.x) * scale, e.width * scale);
		else if (above)
			place(e, pad, width - 2 * pad);
	});
	unzoomButton.classList.toggle('hide', !zoomed);
	axis(target.x - root.x, target.width, root.width);
	save();
}

// A time as render/units.c writes it: in the largest unit it holds one of, two decimals, ".00" dropped.
function timeLabel(ns) {
	var units = [['ns', 1], ['us', 1e3], ['ms', 1e6], ['s', 1e9], ['hrs', 3600e9]], unit = units[0];
	units.forEach(function (u) { if (Math.abs(ns) >= u[1]) unit = u; });
	var text = (ns / unit[1]).toFixed(2).replace(/\.00$/, '');
	return text === '0' || text === '-0' ? '0' : text + unit[0];
}

// The time axis of the span from `from` for `span` pixels of the unzoomed `whole`: ticks at round steps.
function axis(from, span, whole) {
	var g = document.getElementById('axis');
	if (!g)
		return;
	var ns = Number(g.getAttribute('data-ns')), first = ns * from / whole, shown = ns * span / whole;
	if (!(shown > 0))
		return;
	var pixels = width - 2 * pad, spacing = 90, step = Math.pow(10, Math.floor(Math.log10(shown * spacing / pixels)));
	for (var i = 0; step * pixels / shown < spacing; i++)
		step *= i % 3 === 1 ? 2.5 : 2;
	var line = g.querySelector('line'), text = g.querySelector('text');
	while (g.firstChild)
		g.removeChild(g.firstChild);
	for (var t = Math.ceil(first / step - 1e-9) * step; t <= first + shown * (1 + 1e-9); t += step) {
		var x = (pad + (t - first) / shown * pixels).toFixed(1), l = line.cloneNode(), label = text.cloneNode();
		l.setAttribute('x1', x);
		l.setAttribute('x2', x);
		label.setAttribute('x', x);
		label.setAttribute('text-anchor', t === first ? 'start' : 'middle');
		label.textContent = timeLabel(t);
		g.appendChild(l);
		g.appendChild(label);
	}
}

function askSearch() {
	var t = prompt('Search for a regular expression' + (ignoreCase ? ' (ignoring case)' : ''), term);
	if (t !== null)
		search(t);
}

function toggleCase() {
	ignoreCase = !ignoreCase;
	caseButton.classList.toggle('show', ignoreCase);
	search(term);
}

// Highlights the boxes whose name matches; the share counts the outermost match of each subtree.
function search(t) {
	var re = null;
	term = t || '';
	if (term) {
		try {
			re = new RegExp(term, ignoreCase ? 'i' : '');
		} catch (e) {
			matched.nodeValue = 'Not a regular expression: ' + term;
		}
	}
	var sum = 0, skipTo = 0;
	boxes.forEach(function (b, i) {
		var hit = re !== null && b.depth > 0 && !b.elided && re.test(b.name);
		b.rect.setAttribute('fill', hit ? MATCH_FILL : b.fill);
		if (hit && i >= skipTo) {
			sum += b.count;
			skipTo = b.end;
		}
	});
	// Of the whole, as the titles' percentages: under a filter, more than the roots hold.
	var total = percentOf;
	if (!total)
		boxes.forEach(function (b) { if (b.depth === 0) total += b.count; });
	if (re)
		matched.nodeValue = 'Matched: ' + percent(sum, total);
	else if (!term)
		matched.nodeValue = ' ';
	searchButton.classList.toggle('show', re !== null);
	searchButton.firstChild.nodeValue = re ? 'Reset Search' : 'Search';
	save();
}

function percent(part, whole) {
	return part === whole ? '100%' : (100 * part / whole).toFixed(2) + '%';
}

function onKey(e) {
	if ((e.ctrlKey && e.key === 'f') || e.key === 'F3') {
		e.preventDefault();
		askSearch();
	} else if (e.ctrlKey && e.key === 'i') {
		e.preventDefault();
		toggleCase();
	} else if (e.key === 'Escape') {
		search('');
		zoom(null);
	}
}

function save() {
	var params = new URLSearchParams();
	if (zoomed) {
		params.set('x', zoomed.xText);
		params.set('y', zoomed.yText);
	}
	if (term)
		params.set('s', term);
	if (ignoreCase)
		params.set('i', '1');
	var query = params.toString();
	try {
		history.replaceState(null, '', query ? '?' + query : location.pathname);
	} catch (e) {
		// Some browsers refuse it for file: pages; the view works without.
	}
}

function restore() {
	var params = new URLSearchParams(location.search), x = params.get('x'), y = params.get('y');
	var target = null;
	boxes.forEach(function (b) {
		if (b.xText === x && b.yText === y && (!target || b.width > target.width))
			target = b;
	});
	ignoreCase = params.get('i') === '1';
	caseButton.classList.toggle('show', ignoreCase);
	if (target)
		zoom(target);
	if (params.get('s'))
		search(params.get('s'));
}

# Checks the event panels of sprof's plot as Chromium read them (the TSV
# of test/svg/check.cjs plot: panel, element, title, ...) against `prof -t
# sprof` of the same input (run with LC_ALL=C; the sprof TSV first, then
# the marks). Where each run of records of one stack is a dash: the runs
# cover records 1..len in order, there are nr_runs of them, each stack's
# runs add up to its refcount, and the refcount, length and strip panels
# show, run by run, that stack's refcount, length and id. Prints what is
# wrong, or "ok".
BEGIN { FS = "\t" }
FNR == NR && /^# / { section = substr($0, 3); getline; next }
FNR == NR && /^$/ { next }
FNR == NR && section == "profiles" { len = $2; runs = $4; next }
FNR == NR && section == "stack_list" { refcount[$1] = $3; length_of[$1] = $2; next }
FNR == NR { next }
function range(t, r) { match(t, /^events [0-9]+\.\.[0-9]+/); split(substr(t, 8, RLENGTH - 7), r, "\\.\\.") }
function value(t) { sub(/^events [0-9.]+: [a-z]+ /, "", t); return t }
$1 == "profiles-ids" {
	range($3, r)
	n++; first[n] = r[1]; last[n] = r[2]; stack[n] = value($3)
	if (r[1] != at + 1) bad = bad sprintf("run %d starts at %d, not %d; ", n, r[1], at + 1)
	at = r[2]; sum[stack[n]] += r[2] - r[1] + 1
}
$1 == "profiles-refcount" { range($3, r); k = ++nr; if (value($3) != refcount[stack[k]] || r[1] != first[k]) bad = bad "refcount of run " k "; " }
$1 == "profiles-length" { range($3, r); k = ++nl; if (value($3) != length_of[stack[k]] || r[1] != first[k]) bad = bad "length of run " k "; " }
$1 == "profiles-strip" { range($3, r); k = ++ns; if (value($3) != stack[k] || r[2] != last[k]) bad = bad "strip of run " k "; " }
END {
	if (at != len) bad = bad sprintf("runs end at %d, not %d; ", at, len)
	if (n != runs || nr != runs || nl != runs || ns != runs) bad = bad sprintf("%d, %d, %d, %d runs, not %d; ", n, nr, nl, ns, runs)
	for (k in refcount) if (sum[k] + 0 != refcount[k]) bad = bad sprintf("stack %s's runs add up to %d, not %d; ", k, sum[k], refcount[k])
	print bad == "" ? "ok" : bad
}

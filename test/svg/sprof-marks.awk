# The marks that sprof's plot (-t sprofplot) must show in its node and
# stack panels, worked out from `prof -t sprof` of the same input (run
# with LC_ALL=C): "panel<TAB>key<TAB>tie<TAB>title" per mark, in no order.
# Sorted on the first three fields, each panel's marks come in the order
# drawn: largest first, ties by name (nodes) or number (stacks); the
# plot draws the first 400 points and 40 bars of each, which test/sprof.sh
# keeps. Nodes on every record are left out; the bars and the stack
# panels leave out what counts fewer than -v mincount (a node: in total).
BEGIN { FS = "\t" }
/^# / { section = substr($0, 3); getline; next }
/^$/ { next }
section == "profiles" { len = $2 }
section == "stack_list" { stacks++; refcount[$1] = $3; length_of[$1] = $2 }
section == "nodes" { nodes++; name[nodes] = $1; self[nodes] = $5; total[nodes] = $8 }
function emit(panel, key, title) { printf "%s\t%015.0f\t%08d\t%s\n", panel, 1e15 - 1 - key, ++order[panel], title }
END {
	for (i = 1; i <= nodes; i++) {
		if (total[i] == len) continue
		emit("nodes-time", total[i], sprintf("self %.0f, total %.0f: %s", self[i], total[i], name[i]))
		emit("nodes-log", total[i], sprintf("self %.0f, total %.0f: %s", self[i], total[i], name[i]))
		if (self[i] > 0 && total[i] >= mincount)
			emit("nodes-self", self[i], sprintf("self %.0f: %s", self[i], name[i]))
		if (total[i] >= mincount)
			emit("nodes-total", total[i], sprintf("total %.0f: %s", total[i], name[i]))
	}
	for (k = 1; k <= stacks; k++) {
		if (refcount[k] < mincount) continue
		emit("stacks-length", refcount[k], sprintf("stack %d: refcount %.0f, length %.0f", k, refcount[k], length_of[k]))
		emit("stacks-refcount", refcount[k], sprintf("stack %d: refcount %.0f", k, refcount[k]))
	}
}

build-fp/main.o: main.c base/alloc.h base/diag.h model/filter_options.h \
 model/filter.h model/model.h model/../base/hashidx.h model/graph.h \
 model/rows.h model/strtab.h formats/format.h formats/../io/input.h \
 formats/../io/output.h formats/../model/model.h io/pathlist.h \
 io/progress.h model/diff.h model/merge.h
base/alloc.h:
base/diag.h:
model/filter_options.h:
model/filter.h:
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
io/pathlist.h:
io/progress.h:
model/diff.h:
model/merge.h:

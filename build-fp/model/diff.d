build-fp/model/diff.o: model/diff.c model/diff.h model/model.h \
 model/../base/hashidx.h model/graph.h model/rows.h model/strtab.h \
 model/../base/alloc.h model/../base/diag.h model/merge.h
model/diff.h:
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:
model/../base/alloc.h:
model/../base/diag.h:
model/merge.h:

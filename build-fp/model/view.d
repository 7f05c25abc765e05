build-fp/model/view.o: model/view.c model/view.h model/model.h \
 model/../base/hashidx.h model/graph.h model/rows.h model/strtab.h \
 model/../base/alloc.h model/../base/diag.h model/diff.h
model/view.h:
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:
model/../base/alloc.h:
model/../base/diag.h:
model/diff.h:

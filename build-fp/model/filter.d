build-fp/model/filter.o: model/filter.c model/filter.h model/model.h \
 model/../base/hashidx.h model/graph.h model/rows.h model/strtab.h \
 model/../base/alloc.h model/../base/diag.h model/merge.h model/view.h
model/filter.h:
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:
model/../base/alloc.h:
model/../base/diag.h:
model/merge.h:
model/view.h:

build-fp/model/merge.o: model/merge.c model/merge.h model/model.h \
 model/../base/hashidx.h model/graph.h model/rows.h model/strtab.h \
 model/../base/diag.h model/../base/alloc.h model/../base/numtext.h
model/merge.h:
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:
model/../base/diag.h:
model/../base/alloc.h:
model/../base/numtext.h:

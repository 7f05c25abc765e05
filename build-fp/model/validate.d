build-fp/model/validate.o: model/validate.c model/model.h \
 model/../base/hashidx.h model/graph.h model/rows.h model/strtab.h \
 model/../base/diag.h model/../base/alloc.h model/../base/numtext.h
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:
model/../base/diag.h:
model/../base/alloc.h:
model/../base/numtext.h:

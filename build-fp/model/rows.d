build-fp/model/rows.o: model/rows.c model/rows.h model/../base/diag.h \
 model/../base/fdio.h model/../base/spill.h model/../base/alloc.h \
 model/model.h model/../base/hashidx.h model/graph.h model/strtab.h \
 model/../base/varint.h
model/rows.h:
model/../base/diag.h:
model/../base/fdio.h:
model/../base/spill.h:
model/../base/alloc.h:
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/strtab.h:
model/../base/varint.h:

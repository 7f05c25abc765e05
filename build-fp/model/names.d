build-fp/model/names.o: model/names.c model/model.h \
 model/../base/hashidx.h model/graph.h model/rows.h model/strtab.h \
 model/../base/alloc.h
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:
model/../base/alloc.h:

build-fp/model/model.o: model/model.c model/model.h \
 model/../base/hashidx.h model/graph.h model/rows.h model/strtab.h \
 model/../base/alloc.h model/../base/checked.h model/../base/numtext.h
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:
model/../base/alloc.h:
model/../base/checked.h:
model/../base/numtext.h:

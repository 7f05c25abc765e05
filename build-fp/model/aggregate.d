build-fp/model/aggregate.o: model/aggregate.c model/aggregate.h \
 model/model.h model/../base/hashidx.h model/graph.h model/rows.h \
 model/strtab.h model/view.h model/../base/alloc.h model/diff.h
model/aggregate.h:
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:
model/view.h:
model/../base/alloc.h:
model/diff.h:

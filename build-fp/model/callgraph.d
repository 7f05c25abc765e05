build-fp/model/callgraph.o: model/callgraph.c model/callgraph.h \
 model/model.h model/../base/hashidx.h model/graph.h model/rows.h \
 model/strtab.h model/../base/alloc.h model/../base/checked.h
model/callgraph.h:
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:
model/../base/alloc.h:
model/../base/checked.h:

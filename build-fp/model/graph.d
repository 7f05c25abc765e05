build-fp/model/graph.o: model/graph.c model/graph.h \
 model/../base/hashidx.h model/../base/alloc.h
model/graph.h:
model/../base/hashidx.h:
model/../base/alloc.h:

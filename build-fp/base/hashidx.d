build-fp/base/hashidx.o: base/hashidx.c base/hashidx.h base/alloc.h \
 base/diag.h
base/hashidx.h:
base/alloc.h:
base/diag.h:

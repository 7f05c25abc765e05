build-fp/base/alloc.o: base/alloc.c base/alloc.h base/diag.h
base/alloc.h:
base/diag.h:

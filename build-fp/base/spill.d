build-fp/base/spill.o: base/spill.c base/spill.h base/alloc.h base/diag.h \
 base/fdio.h
base/spill.h:
base/alloc.h:
base/diag.h:
base/fdio.h:

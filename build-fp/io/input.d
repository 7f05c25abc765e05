build-fp/io/input.o: io/input.c io/input.h io/../base/alloc.h \
 io/../base/diag.h io/../base/fdio.h io/gunzip.h io/progress.h
io/input.h:
io/../base/alloc.h:
io/../base/diag.h:
io/../base/fdio.h:
io/gunzip.h:
io/progress.h:

build-fp/io/gunzip.o: io/gunzip.c io/gunzip.h io/../base/alloc.h \
 io/../base/diag.h io/../base/fdio.h
io/gunzip.h:
io/../base/alloc.h:
io/../base/diag.h:
io/../base/fdio.h:

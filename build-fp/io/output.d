build-fp/io/output.o: io/output.c io/output.h io/../base/alloc.h \
 io/../base/diag.h io/../base/fdio.h io/../base/numtext.h io/progress.h
io/output.h:
io/../base/alloc.h:
io/../base/diag.h:
io/../base/fdio.h:
io/../base/numtext.h:
io/progress.h:

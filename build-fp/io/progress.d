build-fp/io/progress.o: io/progress.c io/progress.h io/../base/diag.h
io/progress.h:
io/../base/diag.h:

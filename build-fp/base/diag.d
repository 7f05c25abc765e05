build-fp/base/diag.o: base/diag.c base/diag.h
base/diag.h:

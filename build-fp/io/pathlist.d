build-fp/io/pathlist.o: io/pathlist.c io/pathlist.h io/../base/diag.h
io/pathlist.h:
io/../base/diag.h:

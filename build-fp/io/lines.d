build-fp/io/lines.o: io/lines.c io/lines.h io/input.h io/../base/diag.h
io/lines.h:
io/input.h:
io/../base/diag.h:

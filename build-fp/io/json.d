build-fp/io/json.o: io/json.c io/json.h io/input.h io/output.h \
 io/../base/alloc.h io/../base/diag.h io/../base/numtext.h \
 io/../base/utf8.h
io/json.h:
io/input.h:
io/output.h:
io/../base/alloc.h:
io/../base/diag.h:
io/../base/numtext.h:
io/../base/utf8.h:

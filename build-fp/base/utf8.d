build-fp/base/utf8.o: base/utf8.c base/utf8.h
base/utf8.h:

build-fp/base/numtext.o: base/numtext.c base/numtext.h
base/numtext.h:

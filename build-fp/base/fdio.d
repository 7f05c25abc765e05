build-fp/base/fdio.o: base/fdio.c base/fdio.h
base/fdio.h:

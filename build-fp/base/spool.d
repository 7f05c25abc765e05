build-fp/base/spool.o: base/spool.c base/spool.h base/alloc.h \
 base/varint.h
base/spool.h:
base/alloc.h:
base/varint.h:

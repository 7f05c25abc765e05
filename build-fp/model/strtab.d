build-fp/model/strtab.o: model/strtab.c model/strtab.h \
 model/../base/hashidx.h model/../base/diag.h model/../base/alloc.h
model/strtab.h:
model/../base/hashidx.h:
model/../base/diag.h:
model/../base/alloc.h:

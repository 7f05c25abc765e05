build-fp/model/textcache.o: model/textcache.c model/textcache.h \
 model/../base/hashidx.h model/../base/alloc.h
model/textcache.h:
model/../base/hashidx.h:
model/../base/alloc.h:

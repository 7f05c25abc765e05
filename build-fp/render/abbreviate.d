build-fp/render/abbreviate.o: render/abbreviate.c render/abbreviate.h \
 render/../base/alloc.h render/../base/hashidx.h render/../base/utf8.h
render/abbreviate.h:
render/../base/alloc.h:
render/../base/hashidx.h:
render/../base/utf8.h:

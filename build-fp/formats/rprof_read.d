build-fp/formats/rprof_read.o: formats/rprof_read.c \
 formats/../base/ascii.h formats/../base/diag.h formats/../base/alloc.h \
 formats/../io/lines.h formats/../io/input.h formats/../model/textcache.h \
 formats/../model/../base/hashidx.h formats/rprof.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h \
 formats/../model/graph.h formats/../model/rows.h \
 formats/../model/strtab.h
formats/../base/ascii.h:
formats/../base/diag.h:
formats/../base/alloc.h:
formats/../io/lines.h:
formats/../io/input.h:
formats/../model/textcache.h:
formats/../model/../base/hashidx.h:
formats/rprof.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:

build-fp/formats/perf_read.o: formats/perf_read.c formats/../base/alloc.h \
 formats/../base/ascii.h formats/../base/checked.h formats/../base/diag.h \
 formats/../io/lines.h formats/../io/input.h formats/../model/textcache.h \
 formats/../model/../base/hashidx.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h \
 formats/../model/graph.h formats/../model/rows.h \
 formats/../model/strtab.h formats/perf.h
formats/../base/alloc.h:
formats/../base/ascii.h:
formats/../base/checked.h:
formats/../base/diag.h:
formats/../io/lines.h:
formats/../io/input.h:
formats/../model/textcache.h:
formats/../model/../base/hashidx.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/perf.h:

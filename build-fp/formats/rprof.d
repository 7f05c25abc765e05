build-fp/formats/rprof.o: formats/rprof.c formats/rprof.h \
 formats/format.h formats/../io/input.h formats/../io/output.h \
 formats/../model/model.h formats/../model/../base/hashidx.h \
 formats/../model/graph.h formats/../model/rows.h \
 formats/../model/strtab.h formats/../base/ascii.h
formats/rprof.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/../base/ascii.h:

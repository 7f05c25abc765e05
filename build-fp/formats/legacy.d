build-fp/formats/legacy.o: formats/legacy.c formats/legacy.h \
 formats/../io/lines.h formats/../io/input.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h \
 formats/../base/alloc.h formats/../base/ascii.h formats/format.h \
 formats/../io/input.h formats/../io/output.h
formats/legacy.h:
formats/../io/lines.h:
formats/../io/input.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/../base/alloc.h:
formats/../base/ascii.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:

build-fp/formats/legacy_read.o: formats/legacy_read.c \
 formats/../base/alloc.h formats/../base/ascii.h formats/../base/diag.h \
 formats/format.h formats/../io/input.h formats/../io/output.h \
 formats/../model/model.h formats/../model/../base/hashidx.h \
 formats/../model/graph.h formats/../model/rows.h \
 formats/../model/strtab.h formats/legacy.h formats/../io/lines.h \
 formats/../io/input.h
formats/../base/alloc.h:
formats/../base/ascii.h:
formats/../base/diag.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/legacy.h:
formats/../io/lines.h:
formats/../io/input.h:

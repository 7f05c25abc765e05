build-fp/formats/legacy_maps.o: formats/legacy_maps.c formats/legacy.h \
 formats/../io/lines.h formats/../io/input.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h \
 formats/../base/alloc.h formats/../base/ascii.h formats/../base/diag.h
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
formats/../base/diag.h:

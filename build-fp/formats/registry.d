build-fp/formats/registry.o: formats/registry.c formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h formats/../base/diag.h \
 formats/../io/lines.h formats/../io/input.h
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/../base/diag.h:
formats/../io/lines.h:
formats/../io/input.h:

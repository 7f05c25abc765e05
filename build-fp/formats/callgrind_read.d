build-fp/formats/callgrind_read.o: formats/callgrind_read.c \
 formats/../base/alloc.h formats/../base/ascii.h \
 formats/../base/checked.h formats/../base/diag.h formats/../io/lines.h \
 formats/../io/input.h formats/../model/callgraph.h \
 formats/../model/model.h formats/../model/../base/hashidx.h \
 formats/../model/graph.h formats/../model/rows.h \
 formats/../model/strtab.h formats/callgrind.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h
formats/../base/alloc.h:
formats/../base/ascii.h:
formats/../base/checked.h:
formats/../base/diag.h:
formats/../io/lines.h:
formats/../io/input.h:
formats/../model/callgraph.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/callgrind.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

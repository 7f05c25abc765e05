build-fp/formats/pstats_read.o: formats/pstats_read.c \
 formats/../base/alloc.h formats/../base/checked.h formats/../base/diag.h \
 formats/../model/callgraph.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h formats/pstats.h \
 formats/format.h formats/../io/input.h formats/../io/output.h \
 formats/../model/model.h
formats/../base/alloc.h:
formats/../base/checked.h:
formats/../base/diag.h:
formats/../model/callgraph.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/pstats.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

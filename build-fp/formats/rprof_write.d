build-fp/formats/rprof_write.o: formats/rprof_write.c \
 formats/../base/diag.h formats/../base/alloc.h formats/../base/numtext.h \
 formats/../model/view.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h formats/rprof.h \
 formats/format.h formats/../io/input.h formats/../io/output.h \
 formats/../model/model.h
formats/../base/diag.h:
formats/../base/alloc.h:
formats/../base/numtext.h:
formats/../model/view.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/rprof.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

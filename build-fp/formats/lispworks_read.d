build-fp/formats/lispworks_read.o: formats/lispworks_read.c \
 formats/../base/diag.h formats/../base/alloc.h formats/../base/checked.h \
 formats/../base/utf8.h formats/../io/lines.h formats/../io/input.h \
 formats/lispworks.h formats/format.h formats/../io/input.h \
 formats/../io/output.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h
formats/../base/diag.h:
formats/../base/alloc.h:
formats/../base/checked.h:
formats/../base/utf8.h:
formats/../io/lines.h:
formats/../io/input.h:
formats/lispworks.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:

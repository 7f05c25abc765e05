build-fp/formats/lispworks_write.o: formats/lispworks_write.c \
 formats/../base/diag.h formats/../base/alloc.h formats/../base/utf8.h \
 formats/../model/view.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h formats/lispworks.h \
 formats/format.h formats/../io/input.h formats/../io/output.h \
 formats/../model/model.h
formats/../base/diag.h:
formats/../base/alloc.h:
formats/../base/utf8.h:
formats/../model/view.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/lispworks.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

build-fp/formats/html_write.o: formats/html_write.c \
 formats/../base/alloc.h formats/../base/diag.h formats/../base/fdio.h \
 formats/../model/aggregate.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h \
 formats/../model/view.h formats/../model/diff.h \
 formats/../render/flame.h formats/../render/../io/output.h \
 formats/../render/../model/view.h formats/../render/html.h \
 formats/format.h formats/../io/input.h formats/../io/output.h \
 formats/../model/model.h
formats/../base/alloc.h:
formats/../base/diag.h:
formats/../base/fdio.h:
formats/../model/aggregate.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/../model/view.h:
formats/../model/diff.h:
formats/../render/flame.h:
formats/../render/../io/output.h:
formats/../render/../model/view.h:
formats/../render/html.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

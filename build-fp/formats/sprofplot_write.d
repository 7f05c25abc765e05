build-fp/formats/sprofplot_write.o: formats/sprofplot_write.c \
 formats/../base/alloc.h formats/../base/diag.h formats/../render/plot.h \
 formats/../render/../io/output.h formats/../render/svg.h formats/sprof.h \
 formats/../render/abbreviate.h formats/../render/flame.h \
 formats/../render/../model/view.h formats/../render/../model/model.h \
 formats/../render/../model/../base/hashidx.h \
 formats/../render/../model/graph.h formats/../render/../model/rows.h \
 formats/../render/../model/strtab.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h
formats/../base/alloc.h:
formats/../base/diag.h:
formats/../render/plot.h:
formats/../render/../io/output.h:
formats/../render/svg.h:
formats/sprof.h:
formats/../render/abbreviate.h:
formats/../render/flame.h:
formats/../render/../model/view.h:
formats/../render/../model/model.h:
formats/../render/../model/../base/hashidx.h:
formats/../render/../model/graph.h:
formats/../render/../model/rows.h:
formats/../render/../model/strtab.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

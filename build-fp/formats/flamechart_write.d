build-fp/formats/flamechart_write.o: formats/flamechart_write.c \
 formats/../base/alloc.h formats/../base/diag.h formats/../model/diff.h \
 formats/../model/model.h formats/../model/../base/hashidx.h \
 formats/../model/graph.h formats/../model/rows.h \
 formats/../model/strtab.h formats/flamegraph.h formats/../render/flame.h \
 formats/../render/../io/output.h formats/../render/../model/view.h \
 formats/../render/../model/model.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h
formats/../base/alloc.h:
formats/../base/diag.h:
formats/../model/diff.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/flamegraph.h:
formats/../render/flame.h:
formats/../render/../io/output.h:
formats/../render/../model/view.h:
formats/../render/../model/model.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

build-fp/formats/flamegraph.o: formats/flamegraph.c formats/flamegraph.h \
 formats/../render/flame.h formats/../render/../io/output.h \
 formats/../render/../model/view.h formats/../render/../model/model.h \
 formats/../render/../model/../base/hashidx.h \
 formats/../render/../model/graph.h formats/../render/../model/rows.h \
 formats/../render/../model/strtab.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h
formats/flamegraph.h:
formats/../render/flame.h:
formats/../render/../io/output.h:
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

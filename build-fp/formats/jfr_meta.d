build-fp/formats/jfr_meta.o: formats/jfr_meta.c formats/../base/alloc.h \
 formats/../base/checked.h formats/jfr.h formats/../base/hashidx.h \
 formats/../base/spill.h formats/format.h formats/../io/input.h \
 formats/../io/output.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h
formats/../base/alloc.h:
formats/../base/checked.h:
formats/jfr.h:
formats/../base/hashidx.h:
formats/../base/spill.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:

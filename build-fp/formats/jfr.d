build-fp/formats/jfr.o: formats/jfr.c formats/jfr.h \
 formats/../base/hashidx.h formats/../base/spill.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h
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

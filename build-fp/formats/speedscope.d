build-fp/formats/speedscope.o: formats/speedscope.c formats/speedscope.h \
 formats/format.h formats/../io/input.h formats/../io/output.h \
 formats/../model/model.h formats/../model/../base/hashidx.h \
 formats/../model/graph.h formats/../model/rows.h \
 formats/../model/strtab.h formats/../io/json.h formats/../io/input.h \
 formats/../io/output.h
formats/speedscope.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/../io/json.h:
formats/../io/input.h:
formats/../io/output.h:

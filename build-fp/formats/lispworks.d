build-fp/formats/lispworks.o: formats/lispworks.c formats/lispworks.h \
 formats/format.h formats/../io/input.h formats/../io/output.h \
 formats/../model/model.h formats/../model/../base/hashidx.h \
 formats/../model/graph.h formats/../model/rows.h \
 formats/../model/strtab.h
formats/lispworks.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:

build-fp/formats/tables_write.o: formats/tables_write.c \
 formats/../base/numtext.h formats/format.h formats/../io/input.h \
 formats/../io/output.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h
formats/../base/numtext.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:

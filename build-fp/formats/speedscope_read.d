build-fp/formats/speedscope_read.o: formats/speedscope_read.c \
 formats/../base/alloc.h formats/../base/checked.h formats/../base/diag.h \
 formats/../base/numtext.h formats/../base/spool.h \
 formats/../base/varint.h formats/../io/json.h formats/../io/input.h \
 formats/../io/output.h formats/../model/view.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h formats/speedscope.h \
 formats/format.h formats/../io/input.h formats/../io/output.h \
 formats/../model/model.h
formats/../base/alloc.h:
formats/../base/checked.h:
formats/../base/diag.h:
formats/../base/numtext.h:
formats/../base/spool.h:
formats/../base/varint.h:
formats/../io/json.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/view.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/speedscope.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

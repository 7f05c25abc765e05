build-fp/formats/pstats_write.o: formats/pstats_write.c \
 formats/../base/alloc.h formats/../base/utf8.h formats/../model/view.h \
 formats/../model/model.h formats/../model/../base/hashidx.h \
 formats/../model/graph.h formats/../model/rows.h \
 formats/../model/strtab.h formats/pstats.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h
formats/../base/alloc.h:
formats/../base/utf8.h:
formats/../model/view.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/pstats.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

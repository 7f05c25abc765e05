build-fp/formats/summary_write.o: formats/summary_write.c \
 formats/../model/aggregate.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h \
 formats/../model/view.h formats/../base/alloc.h \
 formats/../base/numtext.h formats/format.h formats/../io/input.h \
 formats/../io/output.h formats/../model/model.h
formats/../model/aggregate.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/../model/view.h:
formats/../base/alloc.h:
formats/../base/numtext.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

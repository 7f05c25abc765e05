build-fp/formats/folded_read.o: formats/folded_read.c \
 formats/../base/alloc.h formats/../base/checked.h formats/../base/diag.h \
 formats/../base/numtext.h formats/../io/lines.h formats/../io/input.h \
 formats/../model/textcache.h formats/../model/../base/hashidx.h \
 formats/folded.h formats/format.h formats/../io/input.h \
 formats/../io/output.h formats/../model/model.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h
formats/../base/alloc.h:
formats/../base/checked.h:
formats/../base/diag.h:
formats/../base/numtext.h:
formats/../io/lines.h:
formats/../io/input.h:
formats/../model/textcache.h:
formats/../model/../base/hashidx.h:
formats/folded.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:

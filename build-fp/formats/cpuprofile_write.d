build-fp/formats/cpuprofile_write.o: formats/cpuprofile_write.c \
 formats/../base/alloc.h formats/../base/diag.h formats/../base/numtext.h \
 formats/../io/json.h formats/../io/input.h formats/../io/output.h \
 formats/../model/view.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h formats/cpuprofile.h \
 formats/format.h formats/../io/input.h formats/../io/output.h \
 formats/../model/model.h
formats/../base/alloc.h:
formats/../base/diag.h:
formats/../base/numtext.h:
formats/../io/json.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/view.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/cpuprofile.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

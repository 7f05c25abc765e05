build-fp/formats/pprof_rprof.o: formats/pprof_rprof.c \
 formats/../base/diag.h formats/../base/alloc.h formats/../base/ascii.h \
 formats/pprof.h formats/../nanopb_gen/profile.pb.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h formats/rprof.h
formats/../base/diag.h:
formats/../base/alloc.h:
formats/../base/ascii.h:
formats/pprof.h:
formats/../nanopb_gen/profile.pb.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/rprof.h:

build-fp/formats/pprof_write.o: formats/pprof_write.c \
 formats/../base/diag.h formats/../base/alloc.h formats/../base/checked.h \
 formats/../base/varint.h formats/../model/view.h \
 formats/../model/model.h formats/../model/../base/hashidx.h \
 formats/../model/graph.h formats/../model/rows.h \
 formats/../model/strtab.h formats/pprof.h \
 formats/../nanopb_gen/profile.pb.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h
formats/../base/diag.h:
formats/../base/alloc.h:
formats/../base/checked.h:
formats/../base/varint.h:
formats/../model/view.h:
formats/../model/model.h:
formats/../model/../base/hashidx.h:
formats/../model/graph.h:
formats/../model/rows.h:
formats/../model/strtab.h:
formats/pprof.h:
formats/../nanopb_gen/profile.pb.h:
formats/format.h:
formats/../io/input.h:
formats/../io/output.h:
formats/../model/model.h:

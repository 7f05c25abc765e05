build-fp/formats/pprof_decode.o: formats/pprof_decode.c \
 formats/../base/diag.h formats/../base/alloc.h formats/../base/varint.h \
 formats/pprof.h formats/../nanopb_gen/profile.pb.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h
formats/../base/diag.h:
formats/../base/alloc.h:
formats/../base/varint.h:
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

build-fp/formats/pprof.o: formats/pprof.c formats/../base/alloc.h \
 formats/../base/numtext.h formats/pprof.h \
 formats/../nanopb_gen/profile.pb.h formats/format.h \
 formats/../io/input.h formats/../io/output.h formats/../model/model.h \
 formats/../model/../base/hashidx.h formats/../model/graph.h \
 formats/../model/rows.h formats/../model/strtab.h
formats/../base/alloc.h:
formats/../base/numtext.h:
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

build-fp/render/flame.o: render/flame.c render/../base/diag.h \
 render/../base/alloc.h render/../base/numtext.h render/../model/diff.h \
 render/../model/model.h render/../model/../base/hashidx.h \
 render/../model/graph.h render/../model/rows.h render/../model/strtab.h \
 render/flame.h render/../io/output.h render/../model/view.h render/svg.h \
 build-fp/render/flame_js.h
render/../base/diag.h:
render/../base/alloc.h:
render/../base/numtext.h:
render/../model/diff.h:
render/../model/model.h:
render/../model/../base/hashidx.h:
render/../model/graph.h:
render/../model/rows.h:
render/../model/strtab.h:
render/flame.h:
render/../io/output.h:
render/../model/view.h:
render/svg.h:
build-fp/render/flame_js.h:

build-fp/render/html.o: render/html.c render/../base/utf8.h render/html.h \
 render/../io/output.h build-fp/render/report_css.h \
 build-fp/render/report_js.h
render/../base/utf8.h:
render/html.h:
render/../io/output.h:
build-fp/render/report_css.h:
build-fp/render/report_js.h:

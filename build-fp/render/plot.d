build-fp/render/plot.o: render/plot.c render/plot.h render/../io/output.h \
 render/svg.h
render/plot.h:
render/../io/output.h:
render/svg.h:

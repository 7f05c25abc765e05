build-fp/render/svg.o: render/svg.c render/svg.h render/../io/output.h
render/svg.h:
render/../io/output.h:

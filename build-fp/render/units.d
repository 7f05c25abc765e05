build-fp/render/units.o: render/units.c render/units.h \
 render/../base/ascii.h
render/units.h:
render/../base/ascii.h:

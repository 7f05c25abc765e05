build-fp/model/filter_options.o: model/filter_options.c \
 model/filter_options.h model/filter.h model/model.h \
 model/../base/hashidx.h model/graph.h model/rows.h model/strtab.h
model/filter_options.h:
model/filter.h:
model/model.h:
model/../base/hashidx.h:
model/graph.h:
model/rows.h:
model/strtab.h:

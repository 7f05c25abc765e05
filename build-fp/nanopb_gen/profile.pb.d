build-fp/nanopb_gen/profile.pb.o: nanopb_gen/profile.pb.c \
 nanopb_gen/profile.pb.h
nanopb_gen/profile.pb.h:

build/obj/collect/registry.o: collect/registry.c collect/src.h \
 include/buf.h include/util.h
collect/src.h:
include/buf.h:
include/util.h:

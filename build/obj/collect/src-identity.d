build/obj/collect/src-identity.o: collect/src-identity.c collect/src.h \
 include/buf.h include/util.h
collect/src.h:
include/buf.h:
include/util.h:

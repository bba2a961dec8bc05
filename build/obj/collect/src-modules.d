build/obj/collect/src-modules.o: collect/src-modules.c collect/src.h \
 include/buf.h include/util.h
collect/src.h:
include/buf.h:
include/util.h:

build/obj/collect/main.o: collect/main.c include/bundle.h \
 collect/collect.h collect/src.h include/buf.h include/log.h \
 include/util.h
include/bundle.h:
collect/collect.h:
collect/src.h:
include/buf.h:
include/log.h:
include/util.h:

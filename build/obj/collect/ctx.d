build/obj/collect/ctx.o: collect/ctx.c include/log.h collect/src.h \
 include/buf.h include/util.h collect/wire.h
include/log.h:
collect/src.h:
include/buf.h:
include/util.h:
collect/wire.h:

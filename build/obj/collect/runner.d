build/obj/collect/runner.o: collect/runner.c include/bundle.h \
 include/log.h collect/runner.h include/buf.h collect/src.h \
 collect/store.h include/util.h collect/wire.h
include/bundle.h:
include/log.h:
collect/runner.h:
include/buf.h:
collect/src.h:
collect/store.h:
include/util.h:
collect/wire.h:

build/obj/collect/collect.o: collect/collect.c include/bundle.h \
 collect/collect.h collect/src.h include/buf.h include/log.h \
 collect/manifest.h collect/runner.h collect/store.h include/util.h
include/bundle.h:
collect/collect.h:
collect/src.h:
include/buf.h:
include/log.h:
collect/manifest.h:
collect/runner.h:
collect/store.h:
include/util.h:

build/obj/collect/manifest.o: collect/manifest.c include/bundle.h \
 include/json.h include/buf.h include/log.h collect/manifest.h \
 include/buf.h collect/runner.h collect/src.h collect/store.h \
 include/util.h
include/bundle.h:
include/json.h:
include/buf.h:
include/log.h:
collect/manifest.h:
include/buf.h:
collect/runner.h:
collect/src.h:
collect/store.h:
include/util.h:

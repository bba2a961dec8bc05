build/obj/collect/store.o: collect/store.c include/bundle.h include/log.h \
 collect/store.h include/util.h
include/bundle.h:
include/log.h:
collect/store.h:
include/util.h:

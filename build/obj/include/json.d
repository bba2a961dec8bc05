build/obj/include/json.o: include/json.c include/json.h include/buf.h \
 include/log.h
include/json.h:
include/buf.h:
include/log.h:

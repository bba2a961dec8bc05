build/obj/include/buf.o: include/buf.c include/buf.h include/log.h
include/buf.h:
include/log.h:

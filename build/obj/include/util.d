build/obj/include/util.o: include/util.c include/log.h include/util.h
include/log.h:
include/util.h:

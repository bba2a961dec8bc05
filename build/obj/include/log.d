build/obj/include/log.o: include/log.c include/log.h
include/log.h:

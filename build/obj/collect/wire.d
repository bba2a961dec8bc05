build/obj/collect/wire.o: collect/wire.c collect/wire.h
collect/wire.h:

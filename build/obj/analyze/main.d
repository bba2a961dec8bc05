build/obj/analyze/main.o: analyze/main.c

#!/bin/sh
# tests/fuzz/figures.sh LOGDIR: the README's table from libFuzzer logs
# (LOGDIR/<target>.log, runs made with -print_final_stats=1): seconds,
# executions, exec/s, coverage at the start (the corpus alone) and at the
# end, corpus entries, crashes
echo "| target | seconds | executions | exec/s | cov (start -> end) | ft (start -> end) | corpus | crashes |"
echo "|---|---|---|---|---|---|---|---|"
for f in "$1"/*.log; do
	awk -v t="$(basename "$f" .log)" '
	/[ \t]INITED[ \t]/ { for (i = 1; i <= NF; i++) { if ($i == "cov:") c0 = $(i + 1); if ($i == "ft:") f0 = $(i + 1) } }
	/[ \t](DONE|NEW|REDUCE|pulse)[ \t]/ { for (i = 1; i <= NF; i++) { if ($i == "cov:") c1 = $(i + 1); if ($i == "ft:") f1 = $(i + 1); if ($i == "corp:") corp = $(i + 1) } }
	/^Done [0-9]+ runs in/ { secs = $5 }
	/^stat::number_of_executed_units:/ { ex = $2 }
	/^stat::average_exec_per_sec:/ { eps = $2 }
	/ERROR: (AddressSanitizer|UndefinedBehavior|libFuzzer)|runtime error:/ { crash++ }
	END { printf "| %s | %s | %s | %s | %s -> %s | %s -> %s | %s | %d |\n",
		t, secs ? secs : "(stopped)", ex, eps, c0, c1, f0, f1, corp, crash }' "$f"
done

# shellcheck shell=bash
# The main job on a reduced matrix: every scenario on ext4, patched and
# vanilla, with the scenarios' own (small) sizes.  Every run completes, its
# summary parses, the trace accounts for every counted reclaim sleep, and
# the report is generated.
# run-tests: alone: its matrix runs a guest on every CPU

compare_run() {
	local m=$TEST_TMP/compare
	if [ ! -f "$m/report.md" ]; then
		"$RL_TOP/scripts/compare.sh" --scenario all --fs ext4 --modes patched,vanilla --repeat 1 \
			--results "$m" >"$TEST_TMP/compare.log" 2>&1 || true
	fi
	echo "$m"
}

t_compare_every_scenario_completes() {
	local m r n=0
	m=$(compare_run)
	tail -3 "$TEST_TMP/compare.log"
	for r in "$m"/runs/*; do
		n=$((n + 1))
		if [ "$(head -1 "$r/status")" != ok ]; then
			# the folder goes with TEST_TMP: keep what says why
			tail -40 "$r/console.log" 2>/dev/null || true
			fail "$(basename "$r"): $(head -1 "$r/status")"
		fi
		[ -s "$r/$RL_DERIVED/summary.tsv" ] || fail "$(basename "$r"): no summary"
		awk -F'\t' 'NF != 2 { exit 1 }' "$r/$RL_DERIVED/summary.tsv" || fail "$(basename "$r"): malformed summary row"
		grep -q $'^waits.events\t' "$r/$RL_DERIVED/summary.tsv" || fail "$(basename "$r"): no waits.events"
	done
	[ "$n" = $((2 * $(rl_scenarios | wc -w))) ] || fail "$n runs, expected 2 per scenario"
}

# Trace events == class counters (throttle sleeps) + folio writeback waits.
t_compare_trace_matches_counters() {
	local m r events counted checked=0 busy=0
	m=$(compare_run)
	for r in "$m"/runs/*; do
		# a trace that overran lost events: its runs cannot be compared
		if [ "$(cat "$r/guest/trace.txt.overrun")" != 0 ]; then
			echo "$(basename "$r"): trace overran, not compared"
			continue
		fi
		events=$(awk -F'\t' '$1 == "waits.events" { print $2 }' <(run_metrics "$r"))
		counted=$(awk -F'\t' '$1 ~ /^counter\.nr_(throttle_(writeback|isolated|noprogress|congested)|reclaim_wait_(dirty|writeback)|migrate_wait_writeback)$/ { s += $2 } END { print s + 0 }' <(run_metrics "$r"))
		echo "$(basename "$r"): trace $events, counters $counted"
		# every sleep counts once by reason (the class counters count dirty sleeps again)
		[ "$events" = "$counted" ] || fail "$(basename "$r"): $events trace events but $counted counted sleeps"
		checked=$((checked + 1))
		[ "$events" = 0 ] || busy=$((busy + 1))
	done
	# 14 runs; none overran when this was written, and six slept
	[ "$checked" -ge 12 ] || fail "only $checked runs compared, want at least 12"
	[ "$busy" -ge 4 ] || fail "only $busy runs with reclaim sleeps, want at least 4"
}

t_compare_report_generated() {
	local m s first
	m=$(compare_run)
	[ -s "$m/report.md" ] || fail "no report.md"
	for s in $(rl_scenarios); do
		grep -q "^## $s:" "$m/report.md" || fail "scenario $s missing from the report"
	done
	ls "$m"/plots/*.svg >/dev/null || fail "no plots"
	# every plot drew without a complaint (kupdate-after-exit's have no
	# reclaim wait and no completion in their window)
	! grep 'gnuplot:' "$TEST_TMP/compare.log" || fail "gnuplot complained"
	# one table of every check, the thread's figures beside the lab's
	grep -q "^## The threads' figures beside the lab's" "$m/report.md" || fail "no threads' table"
	grep -q '^| memcg-dd | 2012 linux-mm (2 x 1 GiB dd' "$m/report.md" || fail "memcg-dd's thread figures missing from the table"
	# the mission's headline first: fs-completion's verdicts lead, although
	# fio-write comes before it in the matrix
	first=$(sed -n "/^## The threads' figures beside the lab's/,/^## /{/^| [a-z]/p}" "$m/report.md" | sed -n '2{s/^| \([^ |]*\) .*/\1/;p}')
	[ "$first" = fs-completion ] || fail "the threads' table starts with '$first', not fs-completion"
}

# Every writeback completion the trace saw was counted too (the counters
# also see the ones after the trace stopped), and the fs-completion section
# shows the completion metrics and their plot.
t_compare_completions_reported() {
	local m r events counted
	m=$(compare_run)
	for r in "$m"/runs/fs-completion.*; do
		[ "$(cat "$r/guest/trace.txt.overrun")" = 0 ] || continue
		events=$(awk -F'\t' '$1 == "completion.events" { print $2 }' <(run_metrics "$r"))
		counted=$(awk -F'\t' '$1 == "counter.nr_writeback_end_batches" { print $2 }' <(run_metrics "$r"))
		echo "$(basename "$r"): $events completions traced, $counted counted"
		[ "${events:-0}" -gt 0 ] || fail "$(basename "$r"): no completion traced"
		[ "$events" -le "$counted" ] || fail "$(basename "$r"): more completions traced than counted"
	done
	grep -q '^### Writeback completions' "$m/report.md" || fail "no completion table in the report"
	ls "$m"/plots/fs-completion.patched.completions.svg >/dev/null || fail "no completions plot"
}

# kupdate-after-exit's check (tool.kupdate.busy_mbps > 40) can pass and can
# fail: the writeout rate while the disk writes follows the device, where
# the average over the whole wait (tool.kupdate.mbps) never could.
t_kupdate_check_can_pass_and_fail() {
	local fast=$TEST_TMP/kupdate-hdd slow=$TEST_TMP/kupdate-slow v
	guest "$fast" --time-travel=cpu --disk ext4:hdd --scenario kupdate-after-exit >/dev/null ||
		fail "kupdate-after-exit on hdd: $(head -1 "$fast/status")"
	guest "$slow" --time-travel=cpu --disk ext4:hdd,wbw=20000 --scenario kupdate-after-exit >/dev/null ||
		fail "kupdate-after-exit on a 20 MB/s disk: $(head -1 "$slow/status")"
	for r in "$fast" "$slow"; do
		"$RL_TOP/scripts/summarize-run.sh" "$r" || fail "cannot summarize $r"
		v=$(awk -F'\t' '$1 == "tool.kupdate.busy_mbps" { print $2 }' <(run_metrics "$r"))
		echo "$(basename "$r"): busy_mbps=$v $(cat "$r/guest/kupdate.out")"
		[ -n "$v" ] || fail "no tool.kupdate.busy_mbps in $r"
		if [ "$r" = "$fast" ]; then
			awk -v v="$v" 'BEGIN { exit !(v > 40) }' || fail "on hdd (95 MB/s) the check does not pass: $v"
		else
			awk -v v="$v" 'BEGIN { exit !(v < 40 && v > 5) }' || fail "on a 20 MB/s disk the check does not fail: $v"
		fi
	done
}

# Without --modes a matrix runs every mode its scenarios' checks name
# (patched if they name none), then vanilla (host only: nothing boots).
t_compare_default_modes_are_the_checks() {
	local got out
	got=$(default_modes fs-completion memcg-dd)
	[ "$got" = "2012-patched 2012-vanilla vanilla" ] || fail "default matrix modes: '$got'"
	got=$(default_modes reclaim-plug)
	[ "$got" = "patched noplug vanilla" ] || fail "reclaim-plug's modes: '$got'"
	got=$(default_modes fio-write usemem-swap)
	[ "$got" = "patched vanilla" ] || fail "fio-write and usemem-swap's modes: '$got'"
	out=$("$RL_TOP/scripts/compare.sh" --help)
	grep -q '2012-patched,2012-vanilla,vanilla' <<<"$out" ||
		fail "compare.sh --help does not name the default modes"
}

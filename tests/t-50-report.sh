# shellcheck shell=bash
# The report pass: scripts/report.sh on the small real matrix in
# tests/fixtures/report/matrix (see its README), and rl-aggregate on the
# host under valgrind.

REPORT_FIXTURE=$RL_TOP/tests/fixtures/report/matrix

# report_copy NAME: a fresh copy of the fixture matrix; prints its path
report_copy() {
	local m=$TEST_TMP/$1
	rm -rf "$m"
	cp -r "$REPORT_FIXTURE" "$m"
	echo "$m"
}

# expect_line FILE TEXT: FILE has a line that is exactly TEXT
expect_line() {
	grep -qxF -- "$2" "$1" || fail "$1 lacks the line: $2"
}

# expect_no FILE TEXT: no line of FILE contains TEXT
expect_no() {
	! grep -qF -- "$2" "$1" || fail "$1 should not contain: $2 ($(grep -F -- "$2" "$1" | head -2))"
}

# shellcheck disable=SC2016 # the backquotes are markdown
t_report_tables_checks_plots() {
	local m r plots
	m=$(report_copy tables)
	"$RL_TOP/scripts/report.sh" "$m" || fail "report.sh failed on the fixture"
	r=$m/report.md
	cat "$r"
	# header
	expect_line "$r" "- Kernel: 6.12.118-reclaimlab"
	expect_line "$r" "- Runs: 25 (22 ok, 2 failed, 1 hung)"
	# the 2012-patched runs (matrix E) varied with the seed: xfs' waits
	expect_line "$r" "- Variation between repeats: of 11 scenario/fs/mode cells with two or more ok runs, 3 varied in some figure and 8 gave the same figures in every repeat (the host's run.wall_seconds aside)"
	expect_match "$r" "^- Runs started: 2026-12-02T16:37:32\+00:00 to 2026-12-07T06:14:41\+00:00$"
	expect_match "$r" "^- Matrix: scenarios fs-completion memcg-dd usb-responsiveness; filesystems ext4 xfs vfat btrfs; modes patched vanilla 2012-patched; repeat 2;.*--set WRITE_SIZE=256M$"
	# each mode's knobs as run.sh recorded them (run.conf), none absent
	expect_line "$r" "- patched: vm.pageout_work=1, vm.reclaim_wait_dirty=1, vm.reclaim_plug=1, vm.write_bio_cap=0, vm.reclaim_throttle_writeback=1"
	expect_line "$r" "- vanilla: vm.pageout_work=0, vm.reclaim_wait_dirty=0, vm.reclaim_plug=1, vm.write_bio_cap=0, vm.reclaim_throttle_writeback=1"
	expect_no "$r" "absent"
	# a scenario's header text, setup and parameters
	expect_line "$r" "## fs-completion: how each filesystem completes IO under page reclaim"
	expect_match "$r" '^\*\*Thread.s figures:\*\* 2012 linux-mm, the dd writer.s reclaim_wait\(HZ/10\): ext4 and btrfs complete IO fluently'
	expect_line "$r" "**Parameters:** MEMCG_VERSION=v1, MEMCG_LIMIT=48M, WRITE_SIZE=256M (--set), BS=64k"
	expect_match "$r" '^\*\*Setup:\*\* guest memory 1G, timeout 600 s; device profile \*\*hdd\*\* \(rbw=95000 wbw=95000 seek=8000'
	expect_match "$r" 'device profile \*\*usb-stick\*\*'
	# verdict lines, with the numbers used: the writer's reason=dirty
	# waits in 2012-patched, two seeds (fewer than a verdict needs), none
	# on btrfs
	expect_line "$r" '| not enough runs | `waits.task.rl-dd.reason.dirty.full_timeout_share fs=xfs mode=2012-patched >= 0.5` | all | 0 (n=2, spread 0) >= 0.5; a verdict needs 3 runs a side (--repeat 3) |'
	expect_line "$r" '| not enough runs | `waits.task.rl-dd.reason.dirty.p50_usec fs=ext4 mode=2012-patched >= 2000` | all | 4980 (n=2, spread 1) >= 2000; a verdict needs 3 runs a side (--repeat 3) |'
	expect_line "$r" '| not measured | `waits.task.rl-dd.reason.dirty.full_timeout_share fs=btrfs mode=2012-patched <= 0.1` | all | no data <= 0.1; left side not measured |'
	expect_line "$r" '| not enough runs | `waits.task.rl-reader.events == 0` | fs=ext4 mode=vanilla | 0 (n=2, spread 0) == 0; waits.task.rl-reader.events == 0 in 2 of 2 seeds (95% CI 0.34-1.00); a verdict needs 3 runs a side (--repeat 3) |'
	expect_line "$r" '| not measured | `workload.oom_kills mode=2012-patched == 0` | fs=ext4 | no data == 0; left side not measured |'
	expect_line "$r" "| fs-completion | 0 | 0 | 0 | 0 | 6 | 3 |"
	# the first section after the header is the thread's picture: its plot,
	# then a row a filesystem, before "Checks at a glance" and any table
	[ "$(grep -m1 '^## ' "$r")" = "## The thread's picture: how long the writer's reclaim waits lasted, per filesystem" ] ||
		fail "the first section is not the picture: $(grep -m1 '^## ' "$r")"
	[ "$(grep -n -m1 '^|' "$r" | cut -d: -f1)" -gt "$(grep -n -m1 '^## The thread' "$r" | cut -d: -f1)" ] ||
		fail "a table comes before the picture"
	expect_line "$r" 'fs-completion, mode 2012-patched, `waits.task.rl-dd.reason.dirty`: [CDF of the wait durations per filesystem](plots/fs-completion.2012-patched.picture.svg) ([png](plots/fs-completion.2012-patched.picture.png))'
	expect_line "$r" '| ext4 | 10 waits, 0 ran the full 100 ms, p50 7 ms | 2 runs: 418 waits, p50 4.98 ms, full-timeout share 0 | fluent (0 of 10 full) | fluent (share 0) | `full_timeout_share <= 0.1`: not enough runs; `p50_usec >= 2000`: not enough runs; `p50_usec <= 15000`: not enough runs |'
	expect_match "$r" '^\| xfs \| 12 waits, 10 ran the full 100 ms, p50 100 ms \| 2 runs: 51 waits, p50 28\.3 ms, full-timeout share 0 \| batched \(10 of 12 full\) \| fluent \(share 0\) \| `full_timeout_share >= 0\.5`: not enough runs; \*\*the lab lacks\*\* a second CPU: on one, the writer sleeps .*issue 42\) \|$'
	expect_match "$r" '^\| vfat \| 17 waits, 7 ran the full 100 ms, p50 56 ms \| 2 runs: 647\.5 waits, p50 36\.3 ms, full-timeout share 0\.0015 \| between \(7 of 17 full\) \| fluent \(share 0\.0015\) \| .*\*\*the lab lacks\*\* a stick.s garbage collection'
	expect_line "$r" '| btrfs | no trace in the thread | no 2012-patched run in this matrix | - | no counted run | `full_timeout_share <= 0.1`: not measured; `p50_usec >= 2000`: not measured; `p50_usec <= 15000`: not measured |'
	# the plot's data: the thread's quoted waits as CDF steps, the lab's pooled
	expect_line "$m/plots/fs-completion.2012-patched.picture.ext4.thread.dat" $'7\t0.5'
	[ "$(tail -1 "$m/plots/fs-completion.2012-patched.picture.xfs.lab.dat")" = $'110\t1' ] ||
		fail "xfs' lab CDF does not end at 1 on the plot's edge"
	[ ! -e "$m/plots/fs-completion.2012-patched.picture.btrfs.lab.dat" ] || fail "btrfs has no run to plot"
	# headline tables: medians over the repeats (under the cpu clock the
	# two repeats of this matrix gave the same figures: no min–max), n.s. marks
	# (the writer's reason=dirty columns: those its checks read)
	expect_match "$r" '^\| fs \| mode \| runs \| waits.events \| waits.p50_usec \| waits.p90_usec \| waits.full_timeout_share \| waits.stalled_ms_per_s \| waits.task.rl-dd.events \| waits.task.rl-dd.full_timeout_share \| waits.task.rl-dd.reason.dirty.events \| waits.task.rl-dd.reason.dirty.full_timeout_share \| waits.task.rl-dd.reason.dirty.p50_usec \|$'
	expect_line "$r" "| xfs | vanilla | 2 | 35 | 66391 | 104149 | 0.286 | 888.8 | 35 | 0.286 | 0 | - | - |"
	# ext4 patched's one wait without a timeout (usec_timeout=0) is no full timeout
	expect_line "$r" "| ext4 | patched | 2 | 171 | 10061 | 10100 | 0 | 890.3 | 171 | 0 | 0 n.s. | - | - |"
	expect_line "$r" "| ext4 | patched | 2 | 113.0 | 0 n.s. | 0 n.s. | 6.01 n.s. |"
	# a significant difference has no mark
	expect_line "$r" "| xfs | patched | 2 | 168 | 10072 | 10102 | 0.0179 | 886.4 | 168 | 0.0179 | 2 | 0.5 | 12259 |"
	# iostat table (sysstat's columns, 2012's avgrq-sz derived) and
	# counters as grep -r . /debug/vm shows them
	expect_match "$r" '^\| fs \| mode \| runs \| r/s \| rkB/s \| w/s \| wkB/s \| wareq-sz \(kB\) \| w_await \(ms\) \| aqu-sz \| %util \| avgrq-sz \(2012, sectors\) \|$'
	expect_line "$r" "| ext4 | patched | 2 | 1.5 n.s. | 6 n.s. | 173 | 88320 | 510.5 | 164.7 | 28.5 | 97.2 n.s. | 1012 |"
	expect_line "$r" "| /debug/vm/nr_throttle_writeback | 170 | 35 | 0 | 166 | 35 | 0 | 161 | 6 | 0 |"
	# usb-responsiveness's workload ended before iostat's first second did
	expect_line "$r" "No complete iostat interval in any run (the workloads were shorter than the sampling interval)."
	expect_no "$r" "/debug/vm/nr_reclaim_throttle_clean |"
	expect_match "$r" 'workload.oom_kills'
	# every plot linked exists, as a real SVG and PNG
	plots=$(grep -o '(plots/[^)]*)' "$r" | tr -d '()' | sort -u)
	[ "$(echo "$plots" | wc -l)" = 40 ] || fail "expected 40 plot links, got: $plots"
	for p in $plots; do
		[ -s "$m/$p" ] || fail "plot $p missing or empty"
		case $p in
		*.svg) grep -q '<svg' "$m/$p" || fail "$p is not an SVG" ;;
		*.png) [ "$(head -c 4 "$m/$p" | tail -c 3)" = PNG ] || fail "$p is not a PNG" ;;
		esac
	done
	for kind in hist cdf throughput waits; do
		[ -s "$m/plots/fs-completion.vanilla.$kind.svg" ] || fail "no $kind plot"
	done
	# make report runs the same script
	make -s -C "$RL_TOP" report RESULTS="$m" || fail "make report failed"
}

# A run whose writer was OOM-killed is dropped from a check's side, and the
# verdict says how many were; a run with enough waits counts.  The
# picture counts runs as the checks do, and its row says which it left out.
# shellcheck disable=SC2016 # the backquotes are markdown
t_report_oom_killed_runs_dropped() {
	local m r s
	m=$(report_copy oom)
	# the collector's count of OOM kills, in the run's status
	s=$m/runs/fs-completion.xfs.2012-patched.r2/status
	sed -i 's/^oom_kills=0$/oom_kills=1/' "$s"
	grep -qx 'oom_kills=1' "$s" || fail "cannot mark the run OOM-killed"
	# a vfat seed with 5 dirty waits: too few for a share
	s=$m/runs/fs-completion.vfat.2012-patched.r2/derived/summary.tsv
	sed -i 's/\(\twaits.task.rl-dd.reason.dirty.events\t\)648$/\15/' "$s"
	grep -q 'dirty.events.5$' "$s" || fail "cannot change the run's waits"
	"$RL_TOP/scripts/report.sh" "$m" || fail "report.sh failed"
	r=$m/report.md
	expect_line "$r" '| not enough runs | `waits.task.rl-dd.reason.dirty.full_timeout_share fs=xfs mode=2012-patched >= 0.5` | all | 0 (n=1, spread 0) >= 0.5; a verdict needs 3 runs a side (--repeat 3); 1 OOM-killed run dropped |'
	expect_match "$r" '^\| xfs \| 12 waits, 10 ran the full 100 ms, p50 100 ms \| 1 run: 56 waits, p50 10 ms, full-timeout share 0; 1 OOM-killed run left out \| '
	expect_match "$r" '^\| vfat \| [^|]* \| 1 run: 647 waits, p50 36.3 ms, full-timeout share 0.0015; 1 run left out: 5 waits < minimum 10 \| '
}

# copy_run MATRIX RUN NAME MODE N: a copy of run folder RUN as NAME, of mode
# MODE and repeat (seed) N, its run.conf, status and summary rows renamed;
# prints the new folder
copy_run() {
	local src=$1/runs/$2 dst=$1/runs/$3
	cp -r "$src" "$dst"
	sed -i -e "s/^run=.*/run=$3/" -e "s/^umid=.*/umid=rl-$3/" -e "s/^mode=.*/mode=$4/" \
		-e "s/^repeat=.*/repeat=$5/" -e "s/^seed=.*/seed=$5/" "$dst/run.conf"
	sed -i "s/^run=.*/run=$3/" "$dst/status"
	awk -F'\t' -v OFS='\t' -v run="$3" '{ $1 = run; print }' \
		"$src/derived/summary.tsv" >"$dst/derived/summary.tsv"
	echo "$dst"
}

# add_repeat MATRIX RUN N: a copy of run folder RUN (NAME.rK) as repeat N:
# one more seed that gave the same figures
add_repeat() {
	copy_run "$1" "$2" "${2%.r*}.r$3" "$(sed -n 's/^mode=//p' "$1/runs/$2/run.conf")" "$3" >/dev/null
}

# Verdicts that use the variation: identical runs are "not enough variation
# to judge"; runs that differ get a bootstrap interval; a count outcome is
# a share of seeds with its Wilson interval.
# shellcheck disable=SC2016 # the backquotes are markdown
t_report_verdicts_use_the_variation() {
	local m r s
	m=$(report_copy variation)
	# xfs 2012-patched: share 0.5 in each of three seeds
	for s in "$m"/runs/fs-completion.xfs.2012-patched.r*/derived/summary.tsv; do
		sed -i 's/\(\twaits.task.rl-dd.reason.dirty.full_timeout_share\t\)0.0000$/\10.5000/' "$s"
	done
	add_repeat "$m" fs-completion.xfs.2012-patched.r2 3
	# the reader's zero waits: 3 seeds on vanilla, 4 on patched
	add_repeat "$m" usb-responsiveness.ext4.vanilla.r2 3
	add_repeat "$m" usb-responsiveness.ext4.patched.r2 3
	add_repeat "$m" usb-responsiveness.ext4.patched.r2 4
	"$RL_TOP/scripts/report.sh" "$m" || fail "report.sh failed"
	r=$m/report.md
	# seeds 1 and 2 differ in other figures: the same share in three seeds
	# is judged by the seeds, and three cannot decide
	expect_line "$r" '| inconclusive | `waits.task.rl-dd.reason.dirty.full_timeout_share fs=xfs mode=2012-patched >= 0.5` | all | 0.5 (n=3, spread 0) >= 0.5; waits.task.rl-dd.reason.dirty.full_timeout_share >= 0.5 in 3 of 3 seeds (95% CI 0.44-1.00) |'
	expect_line "$r" '| inconclusive | `waits.task.rl-reader.events == 0` | fs=ext4 mode=vanilla | 0 (n=3, spread 0) == 0; waits.task.rl-reader.events == 0 in 3 of 3 seeds (95% CI 0.44-1.00) |'
	expect_line "$r" '| reproduced | `waits.task.rl-reader.events == 0` | fs=ext4 mode=patched | 0 (n=4, spread 0) == 0; waits.task.rl-reader.events == 0 in 4 of 4 seeds (95% CI 0.51-1.00) |'
	expect_line "$r" "| fs-completion | 0 | 0 | 1 | 0 | 5 | 3 |"
	expect_line "$r" "| usb-responsiveness | 2 | 0 | 2 | 0 | 0 | 0 |"
	# the picture's verdict is the check's, and what the lab lacks follows it
	expect_match "$r" '^\| xfs \| .* \| batched \(share 0\.5\) \| `full_timeout_share >= 0\.5`: inconclusive; \*\*the lab lacks\*\* a second CPU'
	# a seed that differs: an interval with width, judged by it
	s=$m/runs/fs-completion.xfs.2012-patched.r3/derived/summary.tsv
	sed -i 's/\(\twaits.task.rl-dd.reason.dirty.full_timeout_share\t\)0.5000$/\10.75/' "$s"
	grep -q 'dirty.full_timeout_share.0.75$' "$s" || fail "cannot change the run's share"
	"$RL_TOP/scripts/report.sh" "$m" || fail "report.sh failed"
	expect_line "$r" '| reproduced | `waits.task.rl-dd.reason.dirty.full_timeout_share fs=xfs mode=2012-patched >= 0.5` | all | 0.5 (n=3, spread 0.25) >= 0.5; difference 0 [95% CI 0, 0.25] |'
	# the spread beside the median, and the header's count of cells that varied
	expect_match "$r" '^\| xfs \| 2012-patched \| 3 \| .* \| 0\.5 \(0\.5–0\.75\) \| 46669 \(10015–46669\) \|$'
	expect_line "$r" "- Variation between repeats: of 11 scenario/fs/mode cells with two or more ok runs, 3 varied in some figure and 8 gave the same figures in every repeat (the host's run.wall_seconds aside)"
	# reproduced: the picture's row says so, and nothing is lacking
	expect_match "$r" '^\| xfs \| .* \| 3 runs: 46 waits, p50 46\.7 ms, full-timeout share 0\.5 \(0\.5–0\.75\) \| batched \(10 of 12 full\) \| batched \(share 0\.5\) \| `full_timeout_share >= 0\.5`: reproduced \|$'
}

# kernel_run MATRIX SRC MODE N OOM BACKEND: run folder SRC (SCENARIO.FS.*)
# copied as an ok run of mode MODE (M@KERNEL), repeat N, with OOM kills and
# the backend (uml, native)
kernel_run() {
	local fs dst
	fs=$(echo "$2" | cut -d. -f2)
	dst=$(copy_run "$1" "$2" "${2%%.*}.$fs.$3.r$4" "$3" "$4")
	sed -i '/^backend=/d' "$dst/run.conf"
	echo "backend=$6" >>"$dst/run.conf"
	sed -i -e '1s/.*/ok/' -e 's/^exit_status=.*/exit_status=0/' \
		-e "s/^oom_kills=.*/oom_kills=$5/" "$dst/status"
}

# A lab kernel and a native one in one matrix: where the native kernel
# decides a check the other way, the lab's verdict says so; where they
# agree, or the other kernel is not native, nothing is added.
# shellcheck disable=SC2016 # the backquotes are markdown
t_report_marks_native_disagreement() {
	local m r n
	m=$(report_copy native)
	for n in 1 2 3 4 5; do
		kernel_run "$m" memcg-dd.ext4.patched.r1 2012-vanilla@6.12 "$n" 1 uml
		kernel_run "$m" memcg-dd.ext4.patched.r1 2012-vanilla@host "$n" 0 native
		kernel_run "$m" memcg-dd.ext4.patched.r1 2012-patched@6.12 "$n" 0 uml
	done
	rm -rf "$m/runs/memcg-dd.ext4.patched.r1"
	"$RL_TOP/scripts/report.sh" "$m" || fail "report.sh failed"
	r=$m/report.md
	expect_match "$r" '^\| reproduced; \*\*native \(host\): not reproduced\*\* \| `workload.oom_kills mode=2012-vanilla > 0` \| fs=ext4 kernel=6.12 \|'
	expect_match "$r" '^\| not reproduced \| `workload.oom_kills mode=2012-vanilla > 0` \| fs=ext4 kernel=host \|'
	expect_match "$r" '^\| reproduced \| `workload.oom_kills mode=2012-patched == 0` \| fs=ext4 kernel=6.12 \|'
	expect_match "$r" '^\|  \|  \| `workload.oom_kills mode=2012-vanilla > 0` \| fs=ext4 kernel=6.12 \| .* \| reproduced; \*\*native \(host\): not reproduced\*\* \|'
	# the same runs with "host" a lab kernel: no native verdict to differ
	sed -i 's/^backend=native$/backend=uml/' "$m"/runs/*@host.r*/run.conf
	"$RL_TOP/scripts/report.sh" "$m" || fail "report.sh failed"
	expect_no "$r" "native (host)"
	expect_match "$r" '^\| reproduced \| `workload.oom_kills mode=2012-vanilla > 0` \| fs=ext4 kernel=6.12 \|'
}

# shellcheck disable=SC2016 # the backquotes are markdown
t_report_failed_runs_listed_and_excluded() {
	local m r
	m=$(report_copy failed)
	# one more run goes bad: its status file decides
	echo crashed >"$m/runs/fs-completion.xfs.vanilla.r2/status.new"
	sed 1d "$m/runs/fs-completion.xfs.vanilla.r2/status" >>"$m/runs/fs-completion.xfs.vanilla.r2/status.new"
	mv "$m/runs/fs-completion.xfs.vanilla.r2/status.new" "$m/runs/fs-completion.xfs.vanilla.r2/status"
	"$RL_TOP/scripts/report.sh" "$m" || fail "report.sh failed"
	r=$m/report.md
	expect_line "$r" "## Runs not ok (left out of every table and plot)"
	expect_line "$r" "| fs-completion.btrfs.vanilla.r1 | failed | exit_status=1 simulated_seconds=1.17 splats=0 splat_kinds= oom_kills=0; guest command failed with status 1 |"
	expect_match "$r" '^\| memcg-dd.ext4.patched.r1 \| hung \| exit_status=124 .*guest hung: killed after 3s \|$'
	expect_match "$r" '^\| fs-completion.xfs.vanilla.r2 \| crashed \| '
	expect_line "$r" "- Runs: 25 (21 ok, 2 failed, 1 crashed, 1 hung)"
	# counted, but out of the figures: xfs vanilla is r1 alone now
	expect_match "$r" '^\| btrfs \| vanilla \| 0 \(\+2 not ok\) \| - \|'
	expect_match "$r" '^\| xfs \| vanilla \| 1 \(\+1 not ok\) \| 35 \| 66391 \|'
	# memcg-dd has no ok run: nothing measured, nothing plotted
	expect_match "$r" '^\| ext4 \| patched \| 0 \(\+1 not ok\) \|'
	expect_line "$r" "No ok run: nothing to plot."
	# the failed filesystem is in no plot but the picture's, which says so
	! grep -l btrfs "$m"/plots/*.svg | grep -v '\.picture\.svg$' || fail "a plot shows btrfs, whose runs all failed"
	[ ! -e "$m/plots/fs-completion.2012-patched.picture.btrfs.lab.dat" ] || fail "the picture plots btrfs' failed runs"
	grep -q xfs "$m/plots/fs-completion.vanilla.cdf.svg" || fail "xfs missing from the CDF"
}

t_report_deterministic() {
	local m
	m=$(report_copy twice)
	"$RL_TOP/scripts/report.sh" "$m" 2>/dev/null || fail "first report failed"
	cp "$m/report.md" "$TEST_TMP/report.first"
	find "$m/plots" | sort >"$TEST_TMP/plots.first"
	touch "$m/plots/stale.svg"
	"$RL_TOP/scripts/report.sh" "$m" 2>/dev/null || fail "second report failed"
	cmp "$TEST_TMP/report.first" "$m/report.md" || fail "report.md differs between two runs: $(diff "$TEST_TMP/report.first" "$m/report.md" | head)"
	find "$m/plots" | sort | cmp - "$TEST_TMP/plots.first" || fail "the plots differ between two runs (stale files kept?)"
	# the date is the runs' own, not today's
	expect_match "$m/report.md" '2026-12-02T16:37:32\+00:00'
	sed -i 's/^started=2026-12-02T16:37:32/started=2025-01-02T03:04:05/' "$m/runs/fs-completion.ext4.patched.r1/run.conf"
	"$RL_TOP/scripts/report.sh" "$m" 2>/dev/null || fail "third report failed"
	expect_match "$m/report.md" '^- Runs started: 2025-01-02T03:04:05\+00:00 to '
	[ ! -e "$m/.plots.new" ] || fail "a temporary plots folder was left behind"
	# nothing of the runs was touched
	diff -r -x report.md -x plots "$REPORT_FIXTURE/runs/fs-completion.xfs.vanilla.r1" "$m/runs/fs-completion.xfs.vanilla.r1" ||
		fail "report.sh changed a run folder"
}

t_report_bad_input() {
	local out rc
	# expect_fail WHAT REGEX ARGS...: report.sh exits non-zero saying REGEX
	expect_fail() {
		local what=$1 re=$2
		shift 2
		rc=0
		out=$("$RL_TOP/scripts/report.sh" "$@" 2>&1) || rc=$?
		[ "$rc" != 0 ] || fail "$what: exit status 0"
		grep -qE "$re" <<<"$out" || fail "$what: message '$out' does not match /$re/"
	}
	expect_fail "missing folder" "matrix folder '.*/nothing-here' does not exist" "$TEST_TMP/nothing-here"
	mkdir -p "$TEST_TMP/empty"
	expect_fail "empty folder" "has no runs" "$TEST_TMP/empty"
	mkdir -p "$TEST_TMP/norun/runs/fs-completion.ext4.vanilla.r1"
	expect_fail "runs without status" "has no runs" "$TEST_TMP/norun"
	touch "$TEST_TMP/afile"
	expect_fail "a file" "is not a folder" "$TEST_TMP/afile"
	expect_fail "no argument" "usage: scripts/report.sh MATRIX"
	expect_fail "two arguments" "give one matrix folder" "$TEST_TMP/empty" "$TEST_TMP/empty"
	[ ! -e "$TEST_TMP/empty/report.md" ] || fail "a report was written for an empty folder"
	out=$("$RL_TOP/scripts/report.sh" --help)
	grep -q 'usage:' <<<"$out" || fail "--help"
}

t_aggregate_valgrind_clean() {
	local agg=$RL_HOST_TOOLS/rl-aggregate sums scn args out
	build_host_tools
	# run folders (their records joined) and a file of joined rows
	sums=("$REPORT_FIXTURE"/runs/* "$RL_TOP/tests/fixtures/aggregate/malformed.tsv")
	scn=$RL_TOP/rootfs/scenarios
	for args in "groups --scn $scn/fs-completion.scn" "compare --by mode patched vanilla" \
		"compare --by fs xfs ext4 --scenario fs-completion" "runs" \
		"check --scn $scn/fs-completion.scn --scn $scn/memcg-dd.scn --scn $scn/usb-responsiveness.scn"; do
		# shellcheck disable=SC2086 # the arguments are split into words
		valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all \
			"$agg" $args "${sums[@]}" >"$TEST_TMP/agg.out" 2>"$TEST_TMP/agg.err" ||
			fail "rl-aggregate $args: exit $?: $(cat "$TEST_TMP/agg.err")"
		[ -s "$TEST_TMP/agg.out" ] || fail "rl-aggregate $args printed nothing"
		# 6 with --scenario: the row whose run changes its fs is of another one
		expect_match "$TEST_TMP/agg.err" '^rl-aggregate: skipped [67] malformed rows \(the first: .*malformed.tsv line 5: not 9 tab-separated fields\)$'
	done
	# stdin, and bad usage with a message naming what is valid
	out=$("$agg" rows "${sums[0]}" | "$agg" runs)
	grep -q '^fs-completion.btrfs.vanilla.r1	fs-completion	btrfs	hdd	vanilla	-	1	failed	no$' <<<"$out" ||
		fail "runs from stdin"
	# the identity is run.conf's, the outcome the status's
	"$agg" rows "$REPORT_FIXTURE/runs/memcg-dd.ext4.patched.r1" >"$TEST_TMP/rows" || fail "rows of a run folder"
	expect_line "$TEST_TMP/rows" $'memcg-dd.ext4.patched.r1\tmemcg-dd\text4\thdd\tpatched\t-\t1\trun.exit_status\t124'
	expect_line "$TEST_TMP/rows" $'memcg-dd.ext4.patched.r1\tmemcg-dd\text4\thdd\tpatched\t-\t1\trun.status\thung'
	# a summary of the layout before 2026-12 is refused, naming the converter
	mkdir -p "$TEST_TMP/old/derived"
	cp "$REPORT_FIXTURE/runs/memcg-dd.ext4.patched.r1/run.conf" "$REPORT_FIXTURE/runs/memcg-dd.ext4.patched.r1/status" "$TEST_TMP/old/"
	printf 'old\tmemcg-dd\text4\thdd\tpatched\t1\twaits.events\t3\n' >"$TEST_TMP/old/derived/summary.tsv"
	rc=0
	"$agg" runs "$TEST_TMP/old" >/dev/null 2>"$TEST_TMP/agg.err" || rc=$?
	[ "$rc" = 2 ] || fail "an old summary: exit $rc, expected 2"
	expect_match "$TEST_TMP/agg.err" 'layout before 2026-12.*scripts/convert-matrix.sh'
	# a run folder saved in that layout is converted once, and the report is the same
	"$RL_TOP/scripts/convert-matrix.sh" "$TEST_TMP/old" 2>/dev/null && fail "convert-matrix.sh took a folder without runs/"
	mkdir -p "$TEST_TMP/oldm/runs" && mv "$TEST_TMP/old" "$TEST_TMP/oldm/runs/memcg-dd.ext4.patched.r1"
	"$RL_TOP/scripts/convert-matrix.sh" "$TEST_TMP/oldm" 2>/dev/null || fail "convert-matrix.sh failed"
	expect_line "$TEST_TMP/oldm/runs/memcg-dd.ext4.patched.r1/derived/summary.tsv" $'waits.events\t3'
	"$agg" runs "$TEST_TMP/oldm/runs/memcg-dd.ext4.patched.r1" >/dev/null || fail "the converted folder is not read"
	for bad in "bogus" "compare" "check" "groups --by mode a b" "check --check x --scenario s" \
		"groups /nonexistent" "check --scenario s --check 'a fs=x 1'"; do
		rc=0
		eval "\"$agg\" $bad" </dev/null >/dev/null 2>"$TEST_TMP/agg.err" || rc=$?
		[ "$rc" = 2 ] || fail "rl-aggregate $bad: exit $rc, expected 2"
		expect_match "$TEST_TMP/agg.err" 'valid' "message of rl-aggregate $bad"
	done
}

# The report of the fixture matrix is tests/fixtures/report/expected-report.md,
# written by rl-report when the fixture was made (see its README): a change
# to any table, verdict or plot link shows here and is made on purpose.
t_report_matches_the_expected_report() {
	local m
	m=$(report_copy matrix)
	"$RL_TOP/scripts/report.sh" "$m" 2>/dev/null || fail "report.sh failed"
	diff -u "$RL_TOP/tests/fixtures/report/expected-report.md" "$m/report.md" ||
		fail "the report differs from tests/fixtures/report/expected-report.md"
}

t_report_valgrind_clean() {
	local m
	m=$(report_copy vg)
	build_host_tools

	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
		"$RL_HOST_TOOLS/rl-report" --matrix "$m" --scenarios "$RL_TOP/rootfs/scenarios" \
		--fs-order "$RL_FILESYSTEMS" --mode-order "$RL_MODES" --out "$TEST_TMP/vg-out" \
		>"$TEST_TMP/vg.out" 2>"$TEST_TMP/vg.err" ||
		fail "rl-report under valgrind: exit $?: $(head -20 "$TEST_TMP/vg.err")"
	grep -qx '22 of 25 runs ok' "$TEST_TMP/vg.out" || fail "unexpected summary: $(cat "$TEST_TMP/vg.out")"
}

# report.html opens in a browser by itself: headless Chromium loads it from
# the file system (no server, no network), draws it into a PNG, and its DOM
# has every scenario's section with its figures inline.
t_report_html_renders() {
	local m dom s title nsvg
	command -v chromium >/dev/null || fail "chromium is not installed (scripts/deps.sh --all installs it)"
	m=$(report_copy html)
	"$RL_TOP/scripts/report.sh" "$m" 2>/dev/null || fail "report.sh failed"
	[ -s "$m/report.html" ] || fail "no report.html"
	! grep -qE '(src|href)="https?:' "$m/report.html" || fail "report.html loads something from the network"
	timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1200,3000 --screenshot="$TEST_TMP/report.png" "file://$m/report.html" \
		>"$TEST_TMP/chromium.out" 2>"$TEST_TMP/chromium.err" || fail "chromium failed: $(tail -3 "$TEST_TMP/chromium.err")"
	[ "$(head -c 4 "$TEST_TMP/report.png" | tail -c 3)" = PNG ] || fail "no PNG screenshot"
	[ "$(stat -c %s "$TEST_TMP/report.png")" -gt 50000 ] || fail "the screenshot is nearly empty"
	! grep -E 'Uncaught|Failed to load resource|net::ERR_' "$TEST_TMP/chromium.err" ||
		fail "the page did not load cleanly"
	dom=$TEST_TMP/report.dom
	timeout 120 chromium --headless=new --no-sandbox --disable-gpu --dump-dom "file://$m/report.html" \
		>"$dom" 2>/dev/null || fail "chromium --dump-dom failed"
	for s in fs-completion memcg-dd usb-responsiveness; do
		title=$("$RL_HOST_TOOLS/rl-scenario-info" --field title "$RL_TOP/rootfs/scenarios/$s.scn")
		grep -qF "<h2>${title//&/&amp;}</h2>" "$dom" || fail "no section for $s in the rendered page"
	done
	nsvg=$(grep -o '<svg' "$dom" | wc -l)
	[ "$nsvg" = "$(find "$m/plots" -name '*.svg' | wc -l)" ] || fail "$nsvg figures inline, expected one per SVG plot"
	echo "rendered: $(stat -c %s "$TEST_TMP/report.png") bytes of PNG, $nsvg figures inline"
}

# The picture's row of a filesystem whose runs of the picture's mode all
# failed says which and why; a scenario without a Picture line has no
# picture, and a bad one stops the report naming it and the valid form.
# shellcheck disable=SC2016 # the backquotes are markdown
t_report_picture_says_why() {
	local m r scn rc
	m=$(report_copy picture)
	r=$m/runs/fs-completion.xfs.2012-patched
	sed -i '1s/.*/crashed/' "$r.r1/status"
	sed -i -e '1s/.*/failed/' -e 's/^exit_status=.*/exit_status=1/' "$r.r2/status"
	echo "reclaimlab: guest command failed with status 1; output: /x/guest.log" \
		>"$m/fs-completion.xfs.2012-patched.r2.err"
	"$RL_TOP/scripts/report.sh" "$m" || fail "report.sh failed"
	r=$m/report.md
	expect_match "$r" '^\| xfs \| 12 waits, 10 ran the full 100 ms, p50 100 ms \| no ok 2012-patched run: fs-completion\.xfs\.2012-patched\.r1 crashed, fs-completion\.xfs\.2012-patched\.r2 failed: guest command failed with status 1 \| batched \(10 of 12 full\) \| no counted run \| `full_timeout_share >= 0\.5`: not measured; \*\*the lab lacks\*\* '
	[ ! -e "$m/plots/fs-completion.2012-patched.picture.xfs.lab.dat" ] || fail "xfs' failed runs were plotted"
	[ -s "$m/plots/fs-completion.2012-patched.picture.xfs.thread.dat" ] || fail "xfs' thread waits not plotted"
	[ "$(grep -c "^## The thread's picture" "$r")" = 1 ] || fail "one picture: fs-completion's"
	# scenarios without a Picture line: no picture, the checks come first
	scn=$TEST_TMP/scenarios
	mkdir -p "$scn"
	cp "$RL_TOP"/rootfs/scenarios/*.scn "$scn/"
	sed -i '/^# Picture:/d' "$scn/fs-completion.scn"
	"$RL_HOST_TOOLS/rl-report" --matrix "$m" --scenarios "$scn" --no-plots --out "$TEST_TMP/nopic" >/dev/null ||
		fail "rl-report without a picture failed"
	expect_no "$TEST_TMP/nopic/report.md" "## The thread's picture"
	[ "$(grep -m1 '^## ' "$TEST_TMP/nopic/report.md")" = "## Checks at a glance" ] || fail "no picture: the checks come first"
	# a bad Picture line: the report is refused, saying where and what is valid
	sed -i 's/^\(# Thread-waits: fs=ext4\).*/# Picture:   waits.events mode=2012-patched/' "$scn/fs-completion.scn"
	rc=0
	"$RL_HOST_TOOLS/rl-report" --matrix "$m" --scenarios "$scn" --no-plots --out "$TEST_TMP/badpic" \
		>/dev/null 2>"$TEST_TMP/badpic.err" || rc=$?
	[ "$rc" = 2 ] || fail "a bad Picture line: exit $rc, expected 2"
	expect_match "$TEST_TMP/badpic.err" "fs-completion\.scn line [0-9]+: bad Picture 'waits\.events mode=2012-patched' \(valid: waits\.task\.COMM\[\.reason\.REASON\] mode=MODE"
}

# picture_box HTML WIDTH HEIGHT: where headless Chromium draws the picture's
# plot in a window of that size: "LEFT TOP RIGHT BOTTOM VIEW_W VIEW_H
# TABLE_TOP" in CSS pixels (the first table's top), or "none".  A copy of
# the page gets a script that measures it; the report has none.
picture_box() {
	local page=$TEST_TMP/measure.html html script
	script='<script>(function () {
	var figs = document.querySelectorAll("figure"), box = "none", i, r, t;
	for (i = 0; i < figs.length; i++) {
		var cap = figs[i].querySelector("figcaption");
		if (cap && /\.picture\.svg$/.test(cap.textContent)) {
			r = figs[i].querySelector("svg").getBoundingClientRect();
			t = document.querySelector("table").getBoundingClientRect();
			box = [r.left, r.top, r.right, r.bottom, window.innerWidth,
			       window.innerHeight, t.top].map(Math.round).join(" ");
			break;
		}
	}
	document.body.setAttribute("data-picture-box", box);
})();</script>'
	html=$(<"$1")
	printf '%s%s</body></html>\n' "${html%</body>*}" "$script" >"$page"
	timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size="$2,$3" --dump-dom "file://$page" 2>/dev/null |
		sed -n 's/.*data-picture-box="\([^"]*\)".*/\1/p'
}

# On a laptop's window (1280x800) the whole picture is on the first screen
# of report.html, above every table; pushed below the fold it is not, so
# the test can tell.  The screenshot of that first screen is kept.
t_report_picture_on_the_first_screen() {
	local m box left top right bottom vw vh table
	command -v chromium >/dev/null || fail "chromium is not installed (scripts/deps.sh --all installs it)"
	m=$(report_copy fold)
	"$RL_TOP/scripts/report.sh" "$m" 2>/dev/null || fail "report.sh failed"
	box=$(picture_box "$m/report.html" 1280 800)
	echo "picture's plot at: $box"
	[[ $box =~ ^[0-9-]+( [0-9-]+){6}$ ]] || fail "no picture plot in the rendered page: '$box'"
	read -r left top right bottom vw vh table <<<"$box"
	if [ "$top" -lt 0 ] || [ "$bottom" -gt "$vh" ]; then
		fail "the picture (y $top to $bottom) is not within the first screen (0 to $vh)"
	fi
	if [ "$left" -lt 0 ] || [ "$right" -gt "$vw" ] || [ $((right - left)) -lt $((vw * 3 / 4)) ]; then
		fail "the picture (x $left to $right) does not fill the first screen's width ($vw)"
	fi
	[ "$bottom" -le "$table" ] || fail "a table (top $table) comes before the picture (bottom $bottom)"
	timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1280,800 --screenshot="$RL_BUILD/test-logs/report-first-screen.png" \
		"file://$m/report.html" >/dev/null 2>&1 || fail "chromium --screenshot failed"
	echo "first screen: $RL_BUILD/test-logs/report-first-screen.png"
	# the same page with a screen's height of text before the picture
	sed -i "s#<h2>The thread's picture#<div style=\"height:${vh}px\"></div>&#" "$m/report.html"
	box=$(picture_box "$m/report.html" 1280 800)
	read -r left top right bottom vw vh table <<<"$box"
	[ "$bottom" -gt "$vh" ] || fail "a picture below the fold (y $top to $bottom) was taken for one on the first screen"
}

# What a guest left instead of its files is not read, and the report says
# so: a fifo for kernel-release (a plain open would wait forever), a link
# to a host file for a progress file, a sparse giant for another run's
# kernel-release, a fifo for the trace
# rl-summarize reads (its summary then has input.refused trace.txt).
t_report_guest_files_refused() {
	local m run r
	m=$(report_copy refused)
	run=$m/runs/fs-completion.ext4.patched.r1
	rm -f "$run/$RL_GUEST/kernel-release" "$run/$RL_GUEST/writer1.progress" "$run/$RL_GUEST/trace.txt"
	mkfifo "$run/$RL_GUEST/kernel-release" "$run/$RL_GUEST/trace.txt"
	ln -s /etc/passwd "$run/$RL_GUEST/writer1.progress"
	rm -f "$m/runs/fs-completion.ext4.patched.r2/$RL_GUEST/kernel-release"
	truncate -s 1T "$m/runs/fs-completion.ext4.patched.r2/$RL_GUEST/kernel-release"
	timeout 60 "$RL_HOST_TOOLS/rl-summarize" "$run" 2>"$TEST_TMP/sum.err" ||
		fail "rl-summarize failed or hung: $(cat "$TEST_TMP/sum.err")"
	expect_match "$TEST_TMP/sum.err" 'guest/trace.txt: refused: it is a fifo'
	expect_match "$run/derived/summary.tsv" $'^input\\.refused\ttrace\\.txt$'
	timeout 120 "$RL_TOP/scripts/report.sh" "$m" 2>"$TEST_TMP/rep.err" ||
		fail "report.sh failed or hung: $(tail -3 "$TEST_TMP/rep.err")"
	r=$m/report.md
	expect_line "$r" "## Guest files refused"
	expect_line "$r" "- fs-completion.ext4.patched.r1/guest/kernel-release: refused: it is a fifo"
	expect_line "$r" "- fs-completion.ext4.patched.r1/guest/writer1.progress: refused: it is a symbolic link"
	expect_match "$r" '^- fs-completion\.ext4\.patched\.r2/guest/kernel-release: refused: 1099511627776 bytes, more than the 65536 '
	expect_match "$r" '^- fs-completion\.ext4\.patched\.r1/guest/trace\.txt: refused when summarized'
	expect_no "$r" "root:"
	grep -q 'Guest files refused' "$m/report.html" || fail "report.html lacks the refused files"
}

# A run's names are data in the plots' gnuplot scripts too: a mode whose
# name closes the quote of a title and calls system() runs nothing, and
# its plots are drawn.
t_report_gnuplot_strings_are_data() {
	local m d
	m=$(report_copy gnuplot)
	for d in "$m"/runs/*.patched.*; do
		sed -i "s/^mode=.*/mode=patched'; system \"touch PWNED\"; print '/" "$d/run.conf"
	done
	"$RL_TOP/scripts/report.sh" "$m" 2>"$TEST_TMP/rep.err" || fail "report.sh failed: $(tail -3 "$TEST_TMP/rep.err")"
	! find "$m" "$TEST_TMP" -name PWNED | grep . || fail "gnuplot ran the command in a mode's name"
	[ -s "$m/plots/fs-completion.patched'; system \"touch PWNED\"; print '.cdf.svg" ] ||
		fail "no CDF plot for the mode: $(find "$m/plots" -name "*.cdf.svg" | head -5)"
}

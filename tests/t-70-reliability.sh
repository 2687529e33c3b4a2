# shellcheck shell=bash
# Reliability: concurrent runs, an interrupted matrix resumed, bad input to
# the main command.
# run-tests: alone: it counts the host's guests and fills a tmpfs

t_two_runs_at_once() {
	local a=$TEST_TMP/par-a b=$TEST_TMP/par-b pa pb
	guest "$a" --disk ext4 -- 'dd if=/dev/zero of=/mnt/ext4/x bs=1M count=32 2>/dev/null; sync; echo A' &
	pa=$!
	guest "$b" --disk ext4 -- 'dd if=/dev/zero of=/mnt/ext4/x bs=1M count=32 2>/dev/null; sync; echo B' &
	pb=$!
	wait "$pa" || fail "first parallel run failed: $(head -1 "$a/status")"
	wait "$pb" || fail "second parallel run failed: $(head -1 "$b/status")"
	[ "$(sed -n 's/^umid=//p' "$a/run.conf")" != "$(sed -n 's/^umid=//p' "$b/run.conf")" ] || fail "runs shared a umid"
	[ "$(sed -n 's/^tmpdir=//p' "$a/run.conf")" != "$(sed -n 's/^tmpdir=//p' "$b/run.conf")" ] || fail "runs shared a TMPDIR"
	expect_match "$a/guest/guest.log" '^A$'
	expect_match "$b/guest/guest.log" '^B$'
}

# SIGTERM mid-matrix: no guest left, finished runs kept, the running one
# marked, and --resume finishes the matrix without redoing finished runs.
t_interrupted_matrix_resumes() {
	local m=$TEST_TMP/interrupt pid first n
	"$RL_TOP/scripts/compare.sh" --scenario fs-completion --fs ext4 --modes patched,vanilla \
		--repeat 2 --jobs 1 --set WRITE_SIZE=96M --results "$m" >"$TEST_TMP/interrupt.log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		[ -n "$(grep -lx ok "$m"/runs/*/status 2>/dev/null | head -1)" ] && break
		sleep 0.1
	done
	first=$(grep -lx ok "$m"/runs/*/status 2>/dev/null | head -1)
	[ -n "$first" ] || fail "no run finished before the interruption: $(cat "$TEST_TMP/interrupt.log")"
	first=$(dirname "$first")
	sleep 0.5
	kill -TERM "$pid"
	wait "$pid" && fail "an interrupted compare exited 0"
	cat "$TEST_TMP/interrupt.log"
	# no process of its runs outlives it: the matrix is free at once (it
	# was not once, and the resume below said "matrix is in use")
	flock -n "$m/.lock" true ||
		fail "the matrix is still in use after the interrupted compare.sh exited (pids: $(fuser "$m/.lock" 2>&1))"
	for r in "$m"/runs/*; do
		expect_no_uml_left "$(basename "$r")"
	done
	[ "$(head -1 "$first/status")" = ok ] || fail "a finished run was touched"
	"$RL_TOP/scripts/compare.sh" --resume "$m" >"$TEST_TMP/resume.log" 2>&1 ||
		fail "resume failed: $(tail -5 "$TEST_TMP/resume.log")"
	n=$(grep -c '^reclaimlab: run [0-9]* of 4' "$TEST_TMP/resume.log" || true)
	[ "$n" -lt 4 ] || fail "resume redid finished runs"
	for r in "$m"/runs/fs-completion.ext4.*.r[12]; do
		[ "$(head -1 "$r/status")" = ok ] || fail "$(basename "$r") is $(head -1 "$r/status") after resume"
	done
	[ -s "$m/report.md" ] || fail "no report after resume"
}

# matrix_wait_free, what an interrupted compare.sh waits with: a process
# outside its job's process group (a guest's session, an ssh client's
# background process) that still holds the matrix's lock is waited for,
# and past the bound named.
t_stopped_matrix_waits_for_its_runs() {
	local d=$TEST_TMP/wait-free t0 out holder
	mkdir -p "$d"
	(
		exec 9>>"$d/.lock"
		flock 9
		setsid sleep 2 &
	)
	! flock -n "$d/.lock" true || fail "the pretend run does not hold the lock"
	t0=$(date +%s)
	matrix_wait_free "$d" 30 || fail "the lock was not let go within 30 s"
	echo "free after $(($(date +%s) - t0)) s"
	[ $(($(date +%s) - t0)) -ge 1 ] || fail "matrix_wait_free did not wait for the holder"
	(
		exec 9>>"$d/.lock"
		flock 9
		setsid sleep 30 &
		echo $! >"$d/holder"
	)
	holder=$(cat "$d/holder")
	out=$(matrix_wait_free "$d" 1 2>&1) && { kill "$holder"; fail "a lock held 30 s was taken in 1"; }
	kill "$holder"
	echo "$out"
	grep -q "still hold $d after 1s (pids:.*$holder" <<<"$out" || fail "the holder was not named: $out"
}

t_compare_bad_input() {
	local args out
	for args in "--scenario nosuch" "--fs ntfs" "--modes turbo" "--profile floppy" \
		"--repeat 0" "--set NOSUCH=1" "--bogus" "--resume /nonexistent" "--fs ,,," "--scenario ," "--modes ,"; do
		# shellcheck disable=SC2086 # the options are split into words
		out=$("$RL_TOP/scripts/compare.sh" $args --results "$TEST_TMP/bad-matrix" 2>&1) &&
			fail "'$args' was accepted"
		grep -q "error:.*valid\|error:.*not a matrix\|error:.*use" <<<"$out" ||
			fail "'$args' gave no clear error: $out"
		[ ! -e "$TEST_TMP/bad-matrix" ] || fail "'$args' created a results folder"
	done
}

# A kernel WARNING fails the run; its whole report, with the backtrace, is
# extracted.  LKDTM (CONFIG_LKDTM) provokes a real one.
t_warning_is_reported_with_excerpt() {
	local run=$TEST_TMP/warning rc=0
	guest "$run" -- 'echo WARNING >/sys/kernel/debug/provoke-crash/DIRECT' || rc=$?
	[ "$rc" != 0 ] || fail "a run with a WARNING in its console exited 0"
	expect_match "$run/status" '^splat$'
	# the kernel's file names are relative to its object folder (the
	# path-independent build: build-kernel.sh), e.g. ../../src/linux/drivers/...
	expect_match "$run/$RL_DERIVED/splats" '^warning: WARNING: CPU: 0 PID: [0-9]+ at (\.\./)*([a-z0-9_.-]+/)*drivers/misc/lkdtm/bugs.c'
	expect_match "$run/status" '^splats=1$'
	expect_match "$run/status" '^splat_kinds=warning:1$'
	# the excerpt holds the backtrace through the trigger and the end marker
	expect_match "$run/$RL_DERIVED/splats.txt" 'lkdtm_WARNING'
	expect_match "$run/$RL_DERIVED/splats.txt" '---\[ end trace'
	cat "$run/$RL_DERIVED/splats.txt"
}

# A guest whose kernel oopses is reported as crashed, with the oops excerpt;
# nothing of it is left running.
t_oops_is_reported_with_excerpt() {
	local run=$TEST_TMP/oops rc=0
	guest "$run" -- 'echo BUG >/sys/kernel/debug/provoke-crash/DIRECT; echo survived' 2>"$TEST_TMP/oops.err" || rc=$?
	cat "$TEST_TMP/oops.err"
	[ "$rc" != 0 ] || fail "a guest that hit BUG() exited 0"
	expect_match "$run/$RL_DERIVED/splats" '^bug: BUG: failure at (\.\./)*([a-z0-9_.-]+/)*drivers/misc/lkdtm/bugs.c:[0-9]+/lkdtm_BUG'
	expect_match "$run/$RL_DERIVED/splats.txt" 'lkdtm_do_action'
	expect_match "$run/status" '^splat_kinds=bug:1$'
	expect_match "$run/status" '^crashed$'
	grep -q 'first splat: bug: BUG: failure at' "$TEST_TMP/oops.err" ||
		fail "the run's message does not name the oops"
	expect_no_uml_left oops
	cat "$run/$RL_DERIVED/splats.txt"
}

# Results folders that cannot be written are refused before a guest starts.
t_unwritable_results_folder() {
	local ro=$TEST_TMP/readonly out
	mkdir -p "$ro/empty"
	chmod 555 "$ro/empty" "$ro"
	out=$(unprivileged "$RL_TOP/scripts/run.sh" --out "$ro/new" -- true 2>&1) &&
		fail "run.sh wrote into a read-only folder"
	grep -q "error: cannot create run folder '$ro/new'" <<<"$out" || fail "unclear error: $out"
	out=$(unprivileged "$RL_TOP/scripts/run.sh" --out "$ro/empty" -- true 2>&1) &&
		fail "run.sh used an unwritable run folder"
	# root's folder: refused as another user's before its write bits count
	grep -q "error: run folder '$ro/empty' is not \(writable\|yours\)" <<<"$out" || fail "unclear error: $out"
	out=$(unprivileged "$RL_TOP/scripts/compare.sh" --scenario fs-completion --fs ext4 \
		--modes patched --results "$ro/matrix" 2>&1) && fail "compare.sh wrote into a read-only folder"
	grep -q "error: cannot create results folder '$ro/matrix'" <<<"$out" || fail "unclear error: $out"
	[ -z "$(ls -A "$ro/empty")" ] || fail "something was written: $(ls "$ro/empty")"
}

# Sizes that cannot fit the disk image, the guest or the host are refused,
# naming the value and the limit, before anything starts.
t_sizes_that_do_not_fit() {
	local out args
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086 # the options are split into words
		out=$("$RL_TOP/scripts/compare.sh" $args --results "$TEST_TMP/fit" 2>&1) &&
			fail "'$args' was accepted"
		grep -qF -e "$want" <<<"$out" || fail "'$args': expected '$want', got: $out"
		[ ! -e "$TEST_TMP/fit" ] || fail "'$args' created a results folder"
	done <<'CASES'
--scenario memcg-dd --set WRITE_SIZE=4G|scenario memcg-dd writes 8.0 GiB (2*WRITE_SIZE with WRITE_SIZE=4G) but the ext4 image holds 6.0 GiB
--scenario kupdate-after-exit --set WRITERS=50 --set WRITE_SIZE=1G|(WRITERS*WRITE_SIZE with WRITERS=50, WRITE_SIZE=1G)
--scenario kupdate-after-exit --set WRITERS=500|bad value '500' for WRITERS (valid: a whole number from 1 to 64)
--scenario reclaim-plug --set USEMEM_SIZE=3G|scenario reclaim-plug allocates 3.0 GiB (USEMEM_SIZE=3G) but its guest has
--scenario fs-completion --set WRITE_SIZE=huge|bad value 'huge' for WRITE_SIZE (valid: a size 1M or more
--mem 999G|--mem 999G does not fit: this host has
--mem 1M|--mem 1M is too small for a guest (valid: 64M or more)
CASES
	out=$("$RL_TOP/scripts/run.sh" --mem 999G --out "$TEST_TMP/fit-run" -- true 2>&1) && fail "--mem 999G accepted"
	grep -q "does not fit: this host has" <<<"$out" || fail "unclear error: $out"
	[ ! -e "$TEST_TMP/fit-run" ] || fail "--mem 999G created a run folder"
}

# A host disk too full for a run is refused before the guest starts; one
# that fills up during a run is reported, the guest stopped, what was
# written kept.  A small tmpfs stands for the full disk (needs root).
t_full_host_disk() {
	local disk=$TEST_TMP/small-disk out rc=0
	mkdir -p "$disk"
	if ! mount -t tmpfs -o size=8M,mode=0755 reclaimlab-full "$disk" 2>/dev/null; then
		echo "cannot mount a small tmpfs here (not root): only the free-space check runs"
		out=$(RL_MIN_FREE=64T "$RL_TOP/scripts/run.sh" --out "$TEST_TMP/nospace" -- true 2>&1) &&
			fail "a run started without the free space it needs"
		grep -q "free, less than the 64T a run needs" <<<"$out" || fail "unclear error: $out"
		return 0
	fi
	(
		trap 'umount "$disk"' EXIT
		out=$("$RL_TOP/scripts/run.sh" --out "$disk/run1" -- true 2>&1) &&
			fail "a run started on a disk with 8 MiB free"
		grep -q "error: the filesystem of run folder '$disk/run1' has 8.0 MiB free, less than the 64M a run needs" <<<"$out" ||
			fail "unclear error: $out"
		[ ! -e "$disk/run1" ] || fail "the refused run left a folder"
		# fills up while the guest writes its results
		out=$(RL_MIN_FREE=1M "$RL_TOP/scripts/run.sh" --out "$disk/run2" -- \
			'dd if=/dev/zero of=/results/big bs=1M count=32' 2>&1) || rc=$?
		echo "$out"
		[ "$rc" != 0 ] || fail "a run that filled the host disk exited 0"
		grep -q "host disk full: the filesystem of '$disk/run2'" <<<"$out" ||
			fail "the full disk was not named: $out"
		[ -s "$disk/run2/console.log" ] || fail "the console log was not kept"
		expect_no_uml_left run2
	)
}

# A run whose workload could not do what the scenario says fails, with the
# reason in its status: a memory limit the guest could not set, a writer
# that exited non-zero without an OOM kill.  The host refuses such values
# (t_set_values_and_results_folder); these jobs bypass it, as a hand-made
# job or a host-side bug would.
t_failed_workload_fails_the_run() {
	local r set want
	while IFS='|' read -r set want; do
		r=$TEST_TMP/failwork-$RANDOM
		{
			echo "export RL_FS=ext4"
			echo "export RL_KNOBS='$(mode_knobs patched)'"
			echo "export RL_SET='WRITE_SIZE=16M $set'"
			echo "exec rl-scenario fs-completion"
		} >"$r.job"
		guest "$r" --time-travel=cpu --disk ext4:hdd --job "$r.job" && fail "RL_SET $set: the job succeeded"
		[ "$(head -1 "$r/status")" = failed ] || fail "RL_SET $set: run is $(head -1 "$r/status"), not failed"
		grep -q "^reason=.*$want" "$r/status" || fail "RL_SET $set: status has no reason '$want': $(cat "$r/status")"
		sed -n 's/^reason=/  reason: /p' "$r/status"
	done <<'CASES'
MEMCG_LIMIT=abc|cannot set memory.limit_in_bytes
BS=abc|writer1 exited with status
CASES
}

# run.sh killed with SIGKILL: its guest dies with it (parent-death signal),
# and the next run sweeps the private TMPDIR it left in /dev/shm.
t_killed_runner_leaves_no_guest() {
	local run=$TEST_TMP/kill9 pid tmpdir
	"$RL_TOP/scripts/run.sh" --out "$run" --timeout 120 -- 'sleep 1000' >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		pgrep -f "umid=rl-kill9" >/dev/null && break
		sleep 0.1
	done
	pgrep -f "umid=rl-kill9" >/dev/null || fail "the guest did not start"
	tmpdir=$(sed -n 's/^tmpdir=//p' "$run/run.conf")
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	for _ in $(seq 50); do
		pgrep -f "umid=rl-kill9" >/dev/null || break
		sleep 0.1
	done
	expect_no_uml_left kill9
	[ -d "$tmpdir" ] || fail "expected the killed run's TMPDIR $tmpdir to be left for the sweep"
	guest "$TEST_TMP/after-kill9" -- true || fail "the next run failed"
	[ ! -e "$tmpdir" ] || fail "the next run did not sweep the stale TMPDIR $tmpdir"
}

# A run that finished but was never summarized (its compare.sh was killed
# with SIGKILL in between) is summarized by --resume.
t_resume_summarizes_finished_runs() {
	local m=$TEST_TMP/unsummarized r
	"$RL_TOP/scripts/compare.sh" --scenario fs-completion --fs ext4 --modes patched --repeat 1 \
		--set WRITE_SIZE=32M --results "$m" >"$m.log" 2>&1 || fail "matrix failed: $(tail -3 "$m.log")"
	r=$m/runs/fs-completion.ext4.patched.r1
	[ -s "$r/$RL_DERIVED/summary.tsv" ] || fail "no summary after the first pass"
	rm "$r/$RL_DERIVED/summary.tsv" "$m/report.md"
	"$RL_TOP/scripts/compare.sh" --resume "$m" >"$m.resume.log" 2>&1 || fail "resume failed"
	[ -s "$r/$RL_DERIVED/summary.tsv" ] || fail "--resume did not summarize the finished run"
	! grep -q 'no summary.tsv: run scripts/summarize-run.sh' "$m/report.md" || fail "the report still shows an unsummarized run"
}

# fork_fails_late RUN: a fork that fails at its third VMA or later (the
# commit charge of a large private writable mapping under
# vm.overcommit_memory=2) tears the half-copied mm down through
# exit_mmap(); on UML that panicked in flush_tlb_mm() before patch 0013.
fork_fails_late() {
	cat >"$1.job" <<'JOB'
set -eu
echo 2 >/proc/sys/vm/overcommit_memory
avail=$(awk '/^CommitLimit:/ { l = $2 } /^Committed_AS:/ { c = $2 } END { print int((l - c) * 7 / 10) }' /proc/meminfo)
rl-usemem "${avail}k" --forks 20
echo 0 >/proc/sys/vm/overcommit_memory
JOB
	guest "$1" --job "$1.job" || fail "the guest failed: $(head -1 "$1/status"); $(grep -m1 -A8 'Kernel panic' "$1/console.log")"
	[ "$(head -1 "$1/status")" = ok ] || fail "run is $(head -1 "$1/status")"
	[ ! -s "$1/$RL_DERIVED/splats" ] || fail "splats: $(head -3 "$1/$RL_DERIVED/splats")"
	# every fork must have failed, or the test did not test the error path
	expect_match "$1/guest/guest.log" ' forks=20 fork_failed=20 fork_errno=ENOMEM$'
}

t_failed_fork_does_not_panic() {
	fork_fails_late "$TEST_TMP/forkfail"
}

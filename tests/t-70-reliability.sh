# shellcheck shell=bash
# Reliability: concurrent runs, an interrupted matrix resumed, bad input to
# the main command.

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
	expect_match "$a/guest.log" '^A$'
	expect_match "$b/guest.log" '^B$'
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

t_compare_bad_input() {
	local args out
	for args in "--scenario nosuch" "--fs ntfs" "--modes turbo" "--profile floppy" \
		"--repeat 0" "--set NOSUCH=1" "--bogus" "--resume /nonexistent"; do
		# shellcheck disable=SC2086 # the options are split into words
		out=$("$RL_TOP/scripts/compare.sh" $args --results "$TEST_TMP/bad-matrix" 2>&1) &&
			fail "'$args' was accepted"
		echo "$out" | grep -q "error:.*valid\|error:.*not a matrix\|error:.*use" ||
			fail "'$args' gave no clear error: $out"
		[ ! -e "$TEST_TMP/bad-matrix" ] || fail "'$args' created a results folder"
	done
}

# A kernel report in the console fails the run and is extracted; the
# guest injects one through /dev/kmsg (UML has no sysrq to crash with).
t_splat_in_console_is_reported() {
	local run=$TEST_TMP/splat rc=0
	guest "$run" -- 'echo "<4>WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 reclaimlab_test_splat" >/dev/kmsg' || rc=$?
	[ "$rc" != 0 ] || fail "a run with a WARNING in its console exited 0"
	expect_match "$run/status" '^splat$'
	expect_match "$run/splats" 'WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 reclaimlab_test_splat'
	expect_match "$run/status" '^splats=1$'
}

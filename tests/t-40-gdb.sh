# shellcheck shell=bash
# scripts/gdb.sh: an experiment booted under gdb in batch mode stops in the
# reclaim wait path with a backtrace through reclaim, continues and ends
# with its normal results; as root and as an unprivileged user.  Attaching
# to a running experiment, the lab's gdb commands, and bad input.
# run-tests: alone: gdb's attach to a running guest failed under load (ptrace: No such process)

# The memcg writer of t-20: a v1 memcg of 48M, 160M written to a slow disk.
gdb_writer_job() {
	cat >"$TEST_TMP/gdb-writer-job.sh" <<'JOB'
set -eu
. /reclaimlab/bin/rl-lib.sh
rl_counters_reset
cg=$(rl_memcg_create writer 48M v1)
rl_memcg_run "$cg" rl-dd write /mnt/ext4/big --size 160M --bs 64k --seed 7 >/results/writer.out
rl_counters_snapshot /results/after
rl-dd verify /mnt/ext4/big --size 160M --seed 7 >/results/verify.out
JOB
	echo "$TEST_TMP/gdb-writer-job.sh"
}

gdb_reclaim_cmds() {
	cat >"$TEST_TMP/gdb-reclaim.gdb" <<'GDB'
list mm/reclaim_wait.c:1,5
rl-break-reclaim-wait -trace
rl-break-reclaim-wait
run
bt
delete 2
break shrink_folio_list
continue
delete 3
rl-folio-flags folio_list
rl-bdi-works
continue
GDB
	echo "$TEST_TMP/gdb-reclaim.gdb"
}

# gdb_batch_run DIR [unprivileged]: the writer under gdb --batch, as this
# user or as the unprivileged test user, once: a kernel that ends with
# SIGTERM under gdb fails the test, and gdb_check_run shows what it saw
# (the suite replaces no kernel while this file runs alone).
gdb_batch_run() {
	local run=$1 who=${2:-} job cmds
	job=$(gdb_writer_job)
	cmds=$(gdb_reclaim_cmds)
	rm -rf "$run"
	set -- "$RL_TOP/scripts/gdb.sh" --batch "$cmds" --out "$run" --timeout 90 \
		--time-travel --mem 1G --disk ext4:usb-stick --job "$job"
	if [ "$who" = unprivileged ]; then
		unprivileged "$@" 2>"$run.err" || true
	else
		"$@" 2>"$run.err" || true
	fi
	cat "$run.err"
}

# What a batch run under gdb must show.
gdb_check_run() {
	local run=$1 log=$1/gdb.log
	[ -s "$log" ] || fail "no gdb transcript in $run: $(ls "$run"; tail -5 "$run/console.log")"
	echo "--- gdb.log (head) ---"
	head -40 "$log"
	# the source path: 'list' shows the patched tree's own file
	local want
	want=$(sed -n '1,5{=;p}' "$RL_KSRC/mm/reclaim_wait.c" | paste - - | head -1)
	grep -qF "$want" "$log" || fail "list did not show $RL_KSRC/mm/reclaim_wait.c (want '$want')"
	expect_match "$log" '^\[rl\] reclaim wait done: reason=[a-z_]+ task=[^ ]+/[0-9]+ class=[a-z_]+ memcg=[0-9]+ .* timeout=' \
		"rl-break-reclaim-wait line"
	expect_match "$log" 'hit Breakpoint 2, reclaim_wait_done \(' "breakpoint hit"
	# the backtrace goes through reclaim: reclaim_wait_done <- the sleep
	# (__reclaim_throttle, or shrink_folio_list waiting on a folio) <- ...
	# <- shrink_inactive_list or shrink_folio_list
	awk '/^\+bt$/ { on = 1; next } /^\+/ { on = 0 } on' "$log" >"$run/bt.txt"
	expect_match "$run/bt.txt" '^#0 +reclaim_wait_done \(' "frame #0"
	awk '/^#[0-9]/ {
		if ($0 ~ / (__reclaim_throttle|reclaim_throttle_acct|reclaim_wait|shrink_folio_list) \(/) sleep = 1
		else if (sleep && $0 ~ / (shrink_inactive_list|shrink_folio_list) \(/) { ok = 1; exit }
	} END { exit !ok }' "$run/bt.txt" ||
		fail "backtrace not through __reclaim_throttle/shrink_folio_list <- shrink_inactive_list: $(head -8 "$run/bt.txt")"
	expect_match "$log" '^[0-9]+ folios? on the list' "rl-folio-flags on folio_list"
	expect_match "$log" '^folio 0x[0-9a-f]+: flags=0x[0-9a-f]+ [][a-z_0-9|,]+$' "rl-folio-flags line"
	expect_match "$log" '^bdi 98:0 ' "rl-bdi-works"
	expect_match "$log" '^[0-9]+ queued works? in all$' "rl-bdi-works total"
	if ! grep -qE '^\[Inferior 1 \(process [0-9]+\) exited normally\]$' "$log"; then
		# the lab's stop hook (scripts/gdb/reclaimlab/setup.py, on_stop)
		# wrote each thread's backtrace and the kernel's last log lines
		# if a fatal signal stopped it
		sed -n '/^\[rl\] the kernel stopped on /,$p' "$log" | head -80
		fail "the kernel did not exit normally under gdb; gdb's last lines: $(tail -8 "$log" | tr '\n' ';') console's last lines: $(tail -8 "$run/console.log" | tr '\n' ';')"
	fi
	# breakpoint 1 printed every wait once: as many as the guest counted
	local seen counted
	seen=$(grep -c '^\[rl\] reclaim wait done: .* \[bp 1, wait #' "$log" || true)
	counted=$(awk -F: '/^nr_(throttle_[a-z]+|reclaim_wait_writeback|migrate_wait_writeback):/ { n += $2 }
		END { print n + 0 }' "$run/guest/after.debug-vm")
	echo "reclaim waits: $seen seen by gdb, $counted counted by the guest"
	if [ "$seen" = 0 ] || [ "$seen" != "$counted" ]; then
		fail "rl-break-reclaim-wait -trace printed $seen waits, the guest counted $counted"
	fi
	if grep -E 'Python Exception|Error in sourced command file|received signal SIG|Program terminated' "$log"; then
		# the kernel's end, for the cause of a signal stop: what the
		# console said last and where gdb saw the signal
		echo "--- console.log (tail) ---"
		tail -25 "$run/console.log"
		echo "--- gdb.log after the signal ---"
		sed -n '/received signal SIG/,$p' "$log" | head -25
		fail "gdb reported an error or a signal stop"
	fi
	# gdb's output stays out of the console log
	! grep -q 'hit Breakpoint' "$run/console.log" || fail "gdb output in console.log"
	# ... and the experiment ended normally, with its results
	expect_match "$run/status" '^ok$' "run status"
	expect_match "$run/guest/writer.out" '^op=write .*bytes=167772160 ' "writer output"
	expect_match "$run/guest/verify.out" 'bad_chunks=0' "data written under gdb"
	expect_no_uml_left "${run##*/}"
	if pgrep -f "gdb.*--args .*umid=rl-${run##*/}_* " >/dev/null; then
		fail "gdb of run ${run##*/} is still alive"
	fi
}

t_gdb_batch_reclaim_wait() {
	local run=$TEST_TMP/gdb-batch
	gdb_batch_run "$run"
	gdb_check_run "$run"
}

t_gdb_batch_unprivileged() {
	local dir=$TEST_TMP/gdb-unpriv
	mkdir -p "$dir"
	[ "$(id -u)" != 0 ] || chown "$UNPRIV_USER" "$dir" 2>/dev/null ||
		{ unprivileged true && chown "$UNPRIV_USER" "$dir"; }
	gdb_batch_run "$dir/run" unprivileged
	gdb_check_run "$dir/run"
	[ "$(id -u)" != 0 ] || [ "$(stat -c %U "$dir/run/gdb.log")" = "$UNPRIV_USER" ] ||
		fail "gdb.log was not written by $UNPRIV_USER"
}

# A kernel that panics under gdb --batch: the lab's stop hook names the
# fatal signal (UML's os_dump_core() sends SIGTERM to its process group),
# shows each thread's backtrace down to the panic and the kernel's last log
# lines, which the console no longer shows once the kernel is going down.
t_gdb_batch_shows_a_panic() {
	local run=$TEST_TMP/gdb-panic log rc=0
	printf 'run\ncontinue\n' >"$TEST_TMP/gdb-panic.gdb"
	# shellcheck disable=SC2016 # the guest's shell expands it
	"$RL_TOP/scripts/gdb.sh" --batch "$TEST_TMP/gdb-panic.gdb" --out "$run" --timeout 60 --time-travel -- \
		'd=$(awk "\$3 == \"debugfs\" { print \$2; exit }" /proc/mounts)
		[ -n "$d" ] || { d=/sys/kernel/debug; mount -t debugfs none $d; }
		echo PANIC >$d/provoke-crash/DIRECT' >/dev/null 2>&1 || rc=$?
	log=$run/gdb.log
	sed -n '/^\[rl\] the kernel stopped on /,$p' "$log" | head -60
	[ "$rc" != 0 ] || fail "a run whose kernel panicked exited 0"
	expect_match "$log" '^\[rl\] the kernel stopped on SIGTERM; ' "the stop hook's line"
	expect_match "$log" '^#[0-9]+ +0x[0-9a-f]+ in os_dump_core \(' "os_dump_core in a backtrace"
	expect_match "$log" '^#[0-9]+ +0x[0-9a-f]+ in panic_exit \(' "panic_exit in a backtrace"
	expect_match "$log" '^#[0-9]+ +0x[0-9a-f]+ in lkdtm_PANIC \(' "the panic's caller in a backtrace"
	expect_match "$log" '^\[ *[0-9.]+\] Kernel panic - not syncing: dumptest$' "the panic in the kernel's log"
	expect_no_uml_left "${run##*/}"
}

# An interrupt pending when the kernel halts (patch 0037): gdb stops the
# kernel in main() after it powered off, at deactivate_all_fds(), and marks
# a SIGIO and a SIGALRM as having arrived while signals were off, as a
# signal held up by gdb does.  Before 0037 main() ran their handlers on the
# host's initial stack: "Kernel mode fault", a panic and os_dump_core()'s
# SIGTERM, the intermittent end of t_gdb_batch_reclaim_wait.  Now the run
# ends as it powered off.
t_gdb_interrupt_pending_at_halt() {
	local run=$TEST_TMP/gdb-halt log
	# SIGIO_MASK | SIGALRM_MASK of arch/um/os-Linux/signal.c
	printf '%s\n' 'break deactivate_all_fds' run 'set var signals_pending = 3' \
		'print signals_pending' continue >"$TEST_TMP/gdb-halt.gdb"
	"$RL_TOP/scripts/gdb.sh" --batch "$TEST_TMP/gdb-halt.gdb" --out "$run" --timeout 60 --time-travel -- \
		'echo done >/results/done' >/dev/null 2>&1 || true
	log=$run/gdb.log
	expect_match "$log" 'hit Breakpoint 1, deactivate_all_fds \(' "the stop after the halt"
	# shellcheck disable=SC2016 # gdb's value history, not a shell variable
	expect_match "$log" '^\$1 = 3$' "the pending interrupts set"
	if ! grep -qE '^\[Inferior 1 \(process [0-9]+\) exited normally\]$' "$log"; then
		sed -n '/^\[rl\] the kernel stopped on /,$p' "$log" | grep -E 'Kernel|fault|^#' | head -20
		fail "the kernel ran an interrupt left pending at its halt: $(tail -4 "$log" | tr '\n' ';')"
	fi
	expect_match "$run/status" '^ok$' "run status"
	[ "$(cat "$run/guest/done" 2>/dev/null)" = "done" ] || fail "the job's result is missing"
	expect_no_uml_left "${run##*/}"
}

# Attach to a running experiment by its run id, look around, detach: the
# experiment goes on and ends normally.  As the unprivileged user: attaching
# needs no more than owning the experiment.
t_gdb_attach_running() {
	local dir=$TEST_TMP/gdb-attach id=attach-me run runsh i out
	run=$dir/runs/$id
	mkdir -p "$dir/runs"
	[ "$(id -u)" != 0 ] || chown "$UNPRIV_USER" "$dir/runs" 2>/dev/null ||
		{ unprivileged true && chown "$UNPRIV_USER" "$dir/runs"; }
	unprivileged "$RL_TOP/scripts/run.sh" --out "$run" --timeout 60 --disk ext4 -- \
		'echo >/results/started; sleep 6; echo after-attach >/results/after' >/dev/null 2>&1 &
	runsh=$!
	for i in $(seq 1 200); do
		[ -f "$run/guest/started" ] && break
		[ "$i" -lt 200 ] || fail "run $id did not start"
		sleep 0.1
	done
	cat >"$TEST_TMP/gdb-attach.gdb" <<'GDB'
info threads
bt 4
lx-ps
rl-bdi-works
print $lx_current().comm
GDB
	unprivileged env RL_RESULTS="$dir" "$RL_TOP/scripts/gdb.sh" --attach "$id" \
		--batch "$TEST_TMP/gdb-attach.gdb" || fail "attach failed"
	wait "$runsh" || fail "the run failed after gdb detached: $(cat "$run/status")"
	cat "$run/gdb.log"
	expect_match "$run/gdb.log" '^ *0x[0-9a-f]+ +1 +init$' "lx-ps"
	expect_match "$run/gdb.log" '^ *0x[0-9a-f]+ +[0-9]+ +sleep$' "lx-ps shows the guest's sleep"
	expect_match "$run/gdb.log" '^bdi 98:0 ' "rl-bdi-works"
	expect_match "$run/status" '^ok$' "run status"
	expect_match "$run/guest/after" 'after-attach' "the guest went on"
	expect_no_uml_left "$id"
	# a finished run cannot be attached to, and says so
	out=$(RL_RESULTS=$dir "$RL_TOP/scripts/gdb.sh" --attach "$id" 2>&1) && fail "attached to a finished run"
	grep -q "run $id is not running (status: ok)" <<<"$out" || fail "finished run: $out"
}

# The lab's commands load and find their breakpoints in the kernel binary
# alone (no process needed).
t_gdb_commands_load() {
	local out
	out=$(RL_GDB_DIR=$RL_TOP/scripts/gdb gdb -q -nx -batch -x "$RL_TOP/scripts/gdb/reclaimlab.gdb" \
		-ex 'rl-help' -ex 'rl-break-reclaim-wait -start' -ex 'info breakpoints' \
		-ex 'lx-symbols' -ex 'info line reclaim_wait_done' \
		-ex 'rl-break-reclaim-wait -reason bogus' "$RL_KERNEL" 2>&1) || true
	echo "$out"
	grep -q '^\[rl\] lx- helpers loaded from ' <<<"$out" || fail "lx- helpers not loaded"
	grep -q 'rl-folio-flags EXPR' <<<"$out" || fail "rl-help"
	grep -qE '[0-9]+ \([a-z_]+, before schedule_timeout\)' <<<"$out" ||
		fail "no wait start found before schedule_timeout()"
	grep -qE '[0-9]+ \(shrink_folio_list, before folio_wait_writeback\)' <<<"$out" ||
		fail "no wait start found in shrink_folio_list"
	grep -q 'lx-symbols: not needed here' <<<"$out" || fail "lx-symbols is not disarmed"
	grep -qF "of \"$RL_KSRC/mm/reclaim_wait.c\"" <<<"$out" || fail "sources not from $RL_KSRC"
	grep -qE "unknown reason bogus \(valid: congested( dirty)? isolated migrate_writeback noprogress wait_writeback writeback\)" <<<"$out" ||
		fail "a bad reason is not named with the valid ones"
	# a kernel gdb started is not detached (it would outlive its run)
	out=$(RL_GDB_MODE=start RL_GDB_DIR=$RL_TOP/scripts/gdb gdb -q -nx -batch \
		-x "$RL_TOP/scripts/gdb/reclaimlab.gdb" -ex detach "$RL_KERNEL" 2>&1) || true
	grep -q "this kernel was started by gdb, detaching would orphan it" <<<"$out" ||
		fail "detach is not refused in start mode: $out"
}

t_gdb_bad_input() {
	local out bad=$TEST_TMP/gdb-bad
	printf 'run\n' >"$TEST_TMP/gdb-ok.gdb"
	gdb_expect_error() { # WANT ARGS...: gdb.sh ARGS fails naming WANT, before any run folder
		local want=$1
		shift
		out=$("$RL_TOP/scripts/gdb.sh" "$@" </dev/null 2>&1) && fail "'$*' was accepted"
		grep -qF -- "$want" <<<"$out" || fail "'$*': no clear error ($want): $out"
		[ ! -e "$bad" ] || fail "'$*' created a run folder before failing"
	}
	gdb_expect_error "unknown run 'no-such-run'" --attach no-such-run
	gdb_expect_error "running now:" --attach no-such-run
	gdb_expect_error "gdb command file '/nonexistent.gdb' not found" --batch /nonexistent.gdb --out "$bad"
	gdb_expect_error "kernel /nonexistent/linux not found" --batch "$TEST_TMP/gdb-ok.gdb" --kernel /nonexistent/linux --out "$bad"
	gdb_expect_error "unknown filesystem 'ntfs' (valid: ext4 xfs vfat btrfs)" --batch "$TEST_TMP/gdb-ok.gdb" --disk ntfs --out "$bad"
	gdb_expect_error "--wrap is what gdb.sh gives run.sh" --wrap cat --out "$bad"
	gdb_expect_error "--interactive puts a guest shell on this terminal" --interactive --out "$bad"
	gdb_expect_error "interactive gdb needs a terminal" --out "$bad" -- true
	gdb_expect_error "--attach takes only --batch" --attach x --disk ext4
	gdb_expect_error "option --batch needs a value" --batch
}

# The few kernel constants the gdb helpers must keep as literals (the
# debug info has no #defines) still match the kernel's headers.
t_gdb_literals_match_headers() {
	local out
	out=$(python3 "$RL_TOP/scripts/gdb/reclaimlab/header_defines.py" "$RL_KSRC" 2>&1) ||
		fail "a literal of the gdb helpers disagrees with the kernel's headers: $out"
	echo "$out"
	grep -q '^ok - PF_KSWAPD' <<<"$out" || fail "PF_KSWAPD was not checked: $out"
}

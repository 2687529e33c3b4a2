# shellcheck shell=bash
# Confinement: the guest reaches the host through its run folder only, and
# no text a user or a guest wrote is run on the host.

# confined_probe RUNDIR OUTSIDE [run.sh wrapper...]: a guest that tries every
# way out of its run folder that hostfs offered; prints "escaped: WHAT" for
# each that worked.
confined_probe() {
	local run=$1 outside=$2
	shift 2
	"$@" "$RL_TOP/scripts/run.sh" --out "$run" --timeout 120 -- "
		try() { if \"\$@\" 2>/dev/null; then echo \"escaped: \$*\"; else echo \"refused: \$*\"; fi; }
		# a hostfs mount that worked must not be the host outside the folder
		probe_mount() {
			mkdir -p /mnt/h
			if mount -t hostfs none /mnt/h -o \"\$1\" 2>/dev/null; then
				echo canary >/mnt/h/canary 2>/dev/null
				[ -e /mnt/h/rl-confine-marker ] && echo \"escaped: mount \$1 reached the host\"
				umount /mnt/h
			else
				echo \"refused: mount \$1\"
			fi
		}
		probe_mount $outside
		probe_mount /../../../../../../../../..$outside
		probe_mount /sub-missing/../../../../../../..$outside
		probe_mount /..
		try ln -s $outside /results/esc
		probe_mount /esc
		try mknod /results/disk b 8 0
		try mknod /results/null c 1 3
		try mknod /results/fifo p
		touch /results/plain
		try chmod 4755 /results/plain
		try chmod 2755 /results/plain
		try chown 1:1 /results/plain
		mkdir -m 6755 /results/setid-dir
		# only the root itself may be mounted again, not a subfolder
		mkdir -p /results/sub
		probe_mount /sub
		mkdir -p /mnt/s
		mount -t hostfs none /mnt/s -o / && echo inner >/mnt/s/inner && umount /mnt/s
	"
}

expect_confined() {
	local run=$1 outside=$2 found
	expect_match "$run/status" '^ok$' "probe run status"
	cat "$run/guest/guest.log"
	! grep -q '^escaped:' "$run/guest/guest.log" || fail "the guest left its run folder: $(grep '^escaped:' "$run/guest/guest.log")"
	[ "$(grep -c '^refused:' "$run/guest/guest.log")" -ge 13 ] || fail "the probe did not run every attempt"
	[ ! -e "$outside/canary" ] || fail "the guest wrote $outside/canary on the host"
	[ "$(cat "$run/guest/inner" 2>/dev/null)" = inner ] || fail "the run folder could not be mounted again"
	found=$(find "$run" \( -type l -o -type p -o -type b -o -type c -o -perm /6000 \) -print)
	[ -z "$found" ] || fail "the guest left host-dangerous files: $found"
}

t_guest_confined_to_run_folder() {
	local outside=$TEST_TMP/outside
	mkdir -p "$outside" && chmod 777 "$outside" && touch "$outside/rl-confine-marker"
	confined_probe "$TEST_TMP/confine-root" "$outside"
	expect_confined "$TEST_TMP/confine-root" "$outside"
	# the same as an ordinary user
	mkdir -p "$TEST_TMP/unpriv-confine"
	[ "$(id -u)" != 0 ] || { unprivileged true && chown "$UNPRIV_USER" "$TEST_TMP/unpriv-confine"; }
	confined_probe "$TEST_TMP/unpriv-confine/run" "$outside" unprivileged
	expect_confined "$TEST_TMP/unpriv-confine/run" "$outside"
}

# The exploit of issue 27: a symlink another local user placed in the run
# folder ("esc -> a root-only folder"; here the kernel's wrapper places it
# before the guest starts) is followed by the host in any mount path
# component but the last, and in a path with a trailing slash.  Under
# confine only the root itself mounts.  And the guest cannot open its
# folder to other users to place such links: no file or folder of its own
# has a group or other permission bit, whatever mode it asks for.
t_guest_hostfs_paths_and_modes_held() {
	local run=$TEST_TMP/confine-modes outside=$TEST_TMP/outside-private found
	mkdir -p "$outside/sub" && chmod 0700 "$outside" && touch "$outside/rl-confine-marker"
	echo secret >"$outside/secret" && chmod 0600 "$outside/secret"
	cat >"$run.wrap" <<WRAP
#!/bin/bash
ln -s "$outside" "$run/guest/esc" || exit 1
exec "\$@"
WRAP
	chmod +x "$run.wrap"
	# shellcheck disable=SC2016 # the job's $ expand in the guest
	guest "$run" --wrap "$run.wrap" -- '
		probe_mount() {
			mkdir -p /mnt/h
			if mount -t hostfs none /mnt/h -o "$1" 2>/dev/null; then
				echo canary >/mnt/h/canary 2>/dev/null
				cat /mnt/h/secret 2>/dev/null
				echo appended >>/mnt/h/secret 2>/dev/null
				echo "escaped: mount $1 ($(ls /mnt/h | tr "\n" " "))"
				umount /mnt/h
			else
				echo "refused: mount $1"
			fi
		}
		[ -L /results/esc ] || echo "no planted link"
		mkdir /results/sub
		for p in /esc/ /esc/sub /esc/sub/ /esc /sub /sub/ /./sub /. ./sub; do
			probe_mount "$p"
		done
		dmesg | grep -q "confine mounts only the hostfs= root, not /esc/" && echo "message: clear"
		mkdir -p /mnt/r && mount -t hostfs none /mnt/r -o // && [ -e /mnt/r/sub ] &&
			umount /mnt/r && echo "mounted: the root"
		chmod 0777 /results && echo "chmod 0777 /results: $(stat -c %a /results)"
		chmod 01777 /results/sub && echo "chmod 01777 /results/sub: $(stat -c %a /results/sub)"
		echo data >/results/file && chmod 0666 /results/file &&
			echo "chmod 0666 file: $(stat -c %a /results/file)"
		umask 0
		echo data >/results/created-0666
		mkdir /results/dir-0777
		mkdir -m 0777 /results/dir-m0777
		! chmod 4777 /results/file 2>/dev/null || echo "escaped: chmod 4777"
	' >/dev/null 2>&1 || true
	cat "$run/guest/guest.log"
	expect_match "$run/status" '^ok$' "hostfs paths and modes run status"
	expect_match "$run/guest/guest.log" '^message: clear$' "the refusal's message"
	expect_match "$run/guest/guest.log" '^mounted: the root$' "a mount of the root"
	! grep -q '^escaped:\|^no planted link' "$run/guest/guest.log" ||
		fail "confinement broken: $(grep '^escaped:\|^no planted link' "$run/guest/guest.log")"
	[ "$(grep -c '^refused: mount' "$run/guest/guest.log")" = 9 ] || fail "not every mount was refused"
	[ ! -e "$outside/canary" ] || fail "the guest wrote $outside/canary on the host"
	[ "$(cat "$outside/secret")" = secret ] || fail "the guest wrote to $outside/secret"
	expect_match "$run/guest/guest.log" '^chmod 0777 /results: 700$' "mode of /results in the guest"
	expect_match "$run/guest/guest.log" '^chmod 0666 file: 600$' "mode of a file in the guest"
	[ "$(stat -c %a "$run/guest")" = 700 ] || fail "the guest made its folder mode $(stat -c %a "$run/guest")"
	for f in sub file created-0666 dir-0777 dir-m0777; do
		[ -e "$run/guest/$f" ] || fail "the guest did not create $f"
	done
	# (job.* are the host's, written before the guest starts)
	found=$(find "$run/guest" -perm /0077 ! -type l ! -name 'job.*' -printf '%m %p\n')
	[ -z "$found" ] || fail "the guest's files have group or other bits: $found"
	# a second local user cannot place anything in the folder
	if [ "$(id -u)" = 0 ]; then
		chmod 0755 "$run"
		! unprivileged ln -s / "$run/guest/planted" 2>/dev/null || fail "another user placed a link in the run folder"
		! unprivileged ln -s / "$run/guest/sub/planted" 2>/dev/null || fail "another user placed a link in the guest's folder"
	fi
}

# init refuses to mount hostfs when the host did not confine it: a wrapper
# drops ",confine", then the whole hostfs= argument, from the kernel's argv.
t_unconfined_hostfs_is_refused() {
	local run rc edit
	for edit in ',confine/' 'hostfs=*/rl.nohostfs=1'; do
		run=$TEST_TMP/unconfined-$RANDOM
		cat >"$run.wrap" <<WRAP
#!/bin/bash
k=\$1
shift
exec "\$k" "\${@/${edit%%/*}/${edit#*/}}"
WRAP
		chmod +x "$run.wrap"
		rc=0
		guest "$run" --wrap "$run.wrap" -- true 2>/dev/null || rc=$?
		[ "$rc" != 0 ] || fail "a guest with unconfined hostfs ($edit) ran its job"
		expect_match "$run/console.log" 'hostfs is not confined' "console log"
		[ ! -e "$run/guest/exit-status" ] || fail "an unconfined guest wrote its results"
	done
}

# matrix.conf is read as data on --resume: nothing in it runs.
t_resume_never_runs_matrix_conf() {
	local m=$TEST_TMP/evil-matrix canary=$TEST_TMP/resume-canary out
	mkdir -p "$m/runs"
	# shellcheck disable=SC2016 # the $(...) is meant to reach the file unexpanded
	printf '%s\n' 'scenarios=fs-completion$(touch${IFS}'"$canary"')' 'filesystems=ext4' \
		'modes=patched' 'profile=' 'mem=' 'sets=' 'repeat=1' 'timeout=' >"$m/matrix.conf"
	out=$("$RL_TOP/scripts/compare.sh" --resume "$m" 2>&1) && fail "a bad matrix.conf was accepted"
	[ ! -e "$canary" ] || fail "--resume ran a command from matrix.conf"
	grep -q "unknown scenario 'fs-completion\$(touch" <<<"$out" || fail "unclear error: $out"
	# shellcheck disable=SC2016
	printf '%s\n' 'scenarios=fs-completion' 'filesystems=ext4' 'modes=patched' 'profile=' 'mem=' \
		"sets=BS=64k'\$(touch\${IFS}$canary)'" 'repeat=1' 'timeout=' >"$m/matrix.conf"
	out=$("$RL_TOP/scripts/compare.sh" --resume "$m" 2>&1) && fail "a bad sets= was accepted"
	[ ! -e "$canary" ] || fail "--resume ran a command from matrix.conf"
	grep -q "bad value" <<<"$out" || fail "unclear error: $out"
	# shellcheck disable=SC2016
	printf '%s\n' 'scenarios=fs-completion' 'filesystems=ext4' 'modes=patched' 'profile=' 'mem=' \
		'sets=' 'repeat=1;touch${IFS}'"$canary" 'timeout=' >"$m/matrix.conf"
	out=$("$RL_TOP/scripts/compare.sh" --resume "$m" 2>&1) && fail "a bad repeat= was accepted"
	[ ! -e "$canary" ] || fail "--resume ran a command from matrix.conf"
	grep -q "bad --repeat" <<<"$out" || fail "unclear error: $out"
	# options that would change the matrix are refused with --resume
	out=$("$RL_TOP/scripts/compare.sh" --resume "$m" --fs xfs 2>&1) && fail "--resume with --fs was accepted"
	grep -q "drop --fs" <<<"$out" || fail "unclear error: $out"
}

# --set values travel to the guest and into matrix.conf: shell syntax is
# refused on the host, SCN_ settings are not parameters, and a matrix never
# goes into a folder that holds something else.
t_set_values_and_results_folder() {
	local canary=$TEST_TMP/set-canary out
	# shellcheck disable=SC2016
	out=$("$RL_TOP/scripts/compare.sh" --scenario memcg-dd --fs ext4 --modes patched \
		--set 'BS=64k'"'"'$(touch${IFS}'"$canary"')'"'" --results "$TEST_TMP/set-m" 2>&1) &&
		fail "a --set value with shell syntax was accepted"
	grep -q "bad value '64k'" <<<"$out" || fail "the message does not name the value: $out"
	out=$("$RL_TOP/scripts/compare.sh" --scenario memcg-dd --fs ext4 --modes patched \
		--set SCN_MEM=256M --results "$TEST_TMP/set-m" 2>&1) && fail "--set SCN_MEM was accepted"
	grep -q "SCN_MEM is a scenario setting" <<<"$out" || fail "unclear error: $out"
	# each parameter's type is checked on the host before anything starts
	local set want
	while IFS='|' read -r set want; do
		out=$("$RL_TOP/scripts/compare.sh" --scenario memcg-dd --fs ext4 --modes patched \
			--set "$set" --results "$TEST_TMP/set-m" 2>&1) && fail "--set $set was accepted"
		grep -qF "$want" <<<"$out" || fail "--set $set: expected '$want', got: $out"
	done <<'CASES'
MEMCG_LIMIT=abc|scenario memcg-dd: bad value 'abc' for MEMCG_LIMIT (valid: a size 4M or more; bytes, or a number with suffix k, M, G)
BS=abc|bad value 'abc' for BS (valid: a size from 512 to 64M
BS=1G|bad value '1G' for BS (valid: a size from 512 to 64M
MEMCG_VERSION=v3|bad value 'v3' for MEMCG_VERSION (valid: one of v1 v2)
WRITE_SIZE=0|bad value '0' for WRITE_SIZE
NOPE=1|scenario memcg-dd has no parameter 'NOPE' (valid: MEMCG_LIMIT WRITE_SIZE BS MEMCG_VERSION)
CASES
	[ ! -e "$TEST_TMP/set-m" ] || fail "a refused matrix created its folder"
	mkdir -p "$TEST_TMP/users-folder" && echo mine >"$TEST_TMP/users-folder/notes"
	out=$("$RL_TOP/scripts/compare.sh" --scenario memcg-dd --fs ext4 --modes patched \
		--results "$TEST_TMP/users-folder" 2>&1) && fail "a non-empty results folder was used"
	grep -q "is not empty" <<<"$out" || fail "unclear error: $out"
	[ "$(ls "$TEST_TMP/users-folder")" = notes ] || fail "the user's folder was written"
}

# A --set word has one rule, rl-scenario-info's (scn_set): run.sh (also
# with --native), compare.sh and a job list's line hand it their words and
# refuse what it refuses with its message, before anything runs; a word it
# takes passes each of them.  The words: a value of the wrong type, one
# outside its range, no parameter, two words in one, no '=', an escape
# sequence, shell syntax.
t_set_one_rule() {
	local word want out m list dir
	m=$TEST_TMP/set-rule
	mkdir -p "$m/runs"
	m=$(cd "$m" && pwd -P)
	dir=$m/runs/memcg-dd.ext4.patched.r1
	list=$TEST_TMP/set-rule.tsv
	# shellcheck disable=SC2016 # the $(id) is the word's text
	for word in BS=abc BS=1G NOPE=1 'WRITE_SIZE=8M BS=4k' WRITE_SIZE $'BS=\e[2J' 'BS=64k$(id)' MEMCG_VERSION=v3; do
		want=$("$RL_HOST_TOOLS/rl-scenario-info" --set "$word" "$RL_TOP/rootfs/scenarios/memcg-dd.scn" 2>&1) &&
			fail "rl-scenario-info took --set '$word'"
		want=${want#rl-scenario-info: }
		[[ "$want" == *"(valid: "* ]] || fail "rl-scenario-info's message names no valid form: $want"
		[[ "$want" != *[[:cntrl:]]* ]] || fail "rl-scenario-info's message holds a control byte: $want"
		echo "--set '$word': $want"
		out=$("$RL_TOP/scripts/run.sh" --scenario memcg-dd --disk ext4 --set "$word" --out "$TEST_TMP/set-rule-run" 2>&1) &&
			fail "run.sh took --set '$word'"
		[ "$out" = "reclaimlab: error: $want" ] || fail "run.sh --set '$word': $out"
		if [ "$(id -u)" = 0 ]; then
			out=$("$RL_TOP/scripts/run.sh" --native --scenario memcg-dd --mode vanilla --disk ext4 \
				--set "$word" --out "$TEST_TMP/set-rule-run" 2>&1) && fail "run.sh --native took --set '$word'"
			[ "$out" = "reclaimlab: error: $want" ] || fail "run.sh --native --set '$word': $out"
		fi
		[ ! -e "$TEST_TMP/set-rule-run" ] || fail "run.sh --set '$word' made its run folder"
		out=$("$RL_TOP/scripts/compare.sh" --scenario memcg-dd --fs ext4 --modes patched --set "$word" \
			--results "$TEST_TMP/set-rule-m" 2>&1) && fail "compare.sh took --set '$word'"
		[ "$out" = "reclaimlab: error: $want" ] || fail "compare.sh --set '$word': $out"
		[ ! -e "$TEST_TMP/set-rule-m" ] || fail "compare.sh --set '$word' made its matrix folder"
		# a tab would split the line's field: not a word a line can carry
		[[ "$word" != *$'\t'* ]] || continue
		printf '%s\t--scenario\tmemcg-dd\t--set\t%s\t--disk\text4\n' "$dir" "$word" >"$list"
		out=$("$RL_TOP/scripts/run-listed.sh" "$list" 1 2>&1) && fail "a job line took --set '$word'"
		[ "$out" = "reclaimlab: error: bad job line: $want" ] || fail "job line --set '$word': $out"
	done
	[ -z "$(ls -A "$m/runs")" ] || fail "a refused line made a run folder: $(ls "$m/runs")"
	# a word it takes, each of them takes: the job line is read, and the
	# run's params are rl-scenario-info's resolved values
	printf '%s\t--scenario\tmemcg-dd\t--set\tWRITE_SIZE=8M\t--set\tWRITE_SIZE=16M\t--disk\text4\n' "$dir" >"$list"
	( read_job_line "$(cat "$list")" ) || fail "a job line with good --set words was refused"
	out=$(scenario_info memcg-dd "" WRITE_SIZE=8M WRITE_SIZE=16M)
	[ "$(info_value "$out" set)" = WRITE_SIZE=16M ] || fail "the resolved --set is not the last word's: $out"
}

# A scenario's SCN_DISK_USE is read without running it: anything but
# parameter names, digits and * + ( ) is refused before bash arithmetic.
t_scenario_expression_not_evaluated() {
	local top=$TEST_TMP/evil-top canary=$TEST_TMP/scn-canary out
	mkdir -p "$top/rootfs/scenarios"
	ln -s "$RL_TOP/scripts" "$top/scripts"
	# shellcheck disable=SC2016
	sed 's/^SCN_DISK_USE=.*/SCN_DISK_USE=s[$({touch,'"${canary//\//\\/}"'})]/' \
		"$RL_TOP/rootfs/scenarios/fs-completion.scn" >"$top/rootfs/scenarios/evil.scn"
	grep -q '^SCN_DISK_USE=s\[' "$top/rootfs/scenarios/evil.scn" || fail "could not write the evil scenario"
	out=$(RL_BUILD=$RL_BUILD "$top/scripts/compare.sh" --scenario evil --fs ext4 \
		--modes patched --results "$TEST_TMP/evil-m" 2>&1) && fail "the evil scenario was accepted"
	[ ! -e "$canary" ] || fail "a scenario's SCN_DISK_USE ran a command on the host"
	grep -q "evil.scn line [0-9]*: SCN_DISK_USE: value 's\[\$({touch,.*' has a character a scenario value may not have" <<<"$out" ||
		fail "unclear error: $out"
	# a bad SCN_MEM is named as what it is, not as a --mem nobody gave
	sed 's/^SCN_MEM=.*/SCN_MEM=lots/' "$RL_TOP/rootfs/scenarios/fs-completion.scn" \
		>"$top/rootfs/scenarios/badmem.scn"
	out=$(RL_BUILD=$RL_BUILD "$top/scripts/compare.sh" --scenario badmem --fs ext4 \
		--modes patched --results "$TEST_TMP/badmem-m" 2>&1) && fail "SCN_MEM=lots was accepted"
	grep -q "badmem.scn line [0-9]*: bad SCN_MEM 'lots'" <<<"$out" || fail "unclear error: $out"
}

# --preset: a scenario's named parameter set, type-checked when the file
# is read; a bad or unknown name is refused before anything starts, and a
# run records the preset with the values it resolved (a --set wins).
t_presets_checked_and_recorded() {
	local out run=$TEST_TMP/preset-run
	out=$("$RL_TOP/scripts/run.sh" --scenario memcg-dd --preset huge --disk ext4 2>&1) &&
		fail "an unknown preset was accepted"
	grep -qF "scenario memcg-dd has no preset 'huge' (valid: thread)" <<<"$out" || fail "unclear error: $out"
	# shellcheck disable=SC2016
	out=$("$RL_TOP/scripts/compare.sh" --scenario memcg-dd --fs ext4 --preset 'x$(id)' \
		--results "$TEST_TMP/preset-m" 2>&1) && fail "a preset name with shell syntax was accepted"
	grep -qF "bad --preset 'x\$(id)'" <<<"$out" || fail "unclear error: $out"
	[ ! -e "$TEST_TMP/preset-m" ] || fail "a refused matrix created its folder"
	"$RL_TOP/scripts/run.sh" --out "$run" --timeout 300 --disk ext4 --scenario memcg-dd \
		--preset thread --set WRITE_SIZE=8M >/dev/null || fail "the preset run failed: $(head -1 "$run/status")"
	expect_match "$run/run.conf" '^preset=thread$'
	expect_match "$run/run.conf" '^params=MEMCG_LIMIT=100M WRITE_SIZE=8M BS=1k MEMCG_VERSION=v1$'
}

# collect-run.sh reads what the guest left as data, through rl-guest-read:
# a fifo is not waited on, a link not followed, a newline in a one-number
# file adds no key to the status file.  No guest boots: the run folder is
# made here as a guest could have left it.
t_collect_reads_guest_files_as_data() {
	local run=$TEST_TMP/collect g
	build_host_tools
	rm -rf "$run" && mkdir -p "$run/$RL_GUEST"
	g=$run/$RL_GUEST
	printf 'run=c1\nclock=cpu\ntimeout=60\n' >"$run/run.conf"
	: >"$run/console.log"
	echo 0 >"$g/exit-status"
	printf '3.25\nexit_status=0\nsplats=0\n' >"$g/guest-uptime"
	printf 'stalled_ticks 4\n' >"$g/time-travel-cpu"
	mkfifo "$g/failure-reason"
	timeout 60 "$RL_TOP/scripts/collect-run.sh" "$run" 1.5 ended ||
		fail "collect-run.sh failed or hung: exit $?"
	expect_match "$run/status" '^ok$' "the status"
	expect_match "$run/status" '^simulated_seconds=3\.25$' "the status"
	expect_match "$run/status" '^clock_stalled_ticks=4$' "the status"
	[ "$(grep -c '^exit_status=' "$run/status")" = 1 ] || fail "a guest's line became a key: $(cat "$run/status")"
	! grep -q '^reason=' "$run/status" || fail "a fifo gave a reason"
	# a link to a host file for each: not read, the run did not report
	rm -f "$g/exit-status" "$g/guest-uptime" "$g/failure-reason"
	echo 0 >"$TEST_TMP/host-file"
	ln -s "$TEST_TMP/host-file" "$g/exit-status"
	ln -s "$TEST_TMP/host-file" "$g/guest-uptime"
	timeout 60 "$RL_TOP/scripts/collect-run.sh" "$run" 1.5 ended 2>"$TEST_TMP/collect.err" &&
		fail "an exit status behind a link was taken"
	expect_match "$TEST_TMP/collect.err" 'exit-status: refused: it is a symbolic link'
	expect_match "$run/status" '^failed$' "the status"
	expect_match "$run/status" '^exit_status=125$' "the status"
	expect_match "$run/status" '^simulated_seconds=unknown$' "the status"
	# rl-guest-read itself: the bytes of a good file, a cap that holds
	printf '12345' >"$g/five"
	[ "$("$RL_HOST_TOOLS/rl-guest-read" --max 5 "$g/five")" = 12345 ] || fail "rl-guest-read: not the file's bytes"
	! "$RL_HOST_TOOLS/rl-guest-read" --max 4 "$g/five" 2>"$TEST_TMP/gr.err" || fail "a file over --max was read"
	expect_match "$TEST_TMP/gr.err" 'five: refused: 5 bytes, more than the 4 '
	! "$RL_HOST_TOOLS/rl-guest-read" "$g/absent" 2>/dev/null || fail "an absent file was read"
	# the console read once for every fact it holds: OOM kills, a disk
	# model the kernel refused (the run fails: the disk ran at host
	# speed), and the knobs the guest's kernel lacked, a name a line
	rm -f "$g/exit-status"
	echo 0 >"$g/exit-status"
	printf '[ 1.0] ubd: bad ubd.model=0,x=1\n[ 2.0] Killed process 7 (rl-dd)\n[ 3.0] Killed process 8 (rl-dd)\n' >"$run/console.log"
	printf 'vm.reclaim_plug\nbad name;\nvm.pageout_work\n' >"$g/knobs-absent"
	"$RL_TOP/scripts/collect-run.sh" "$run" 1.5 ended 2>/dev/null && fail "a refused disk model gave an ok run"
	cat "$run/status"
	expect_match "$run/status" '^failed$' "the status"
	expect_match "$run/status" '^oom_kills=2$' "the status"
	expect_match "$run/status" '^model_errors=1$' "the status"
	expect_match "$run/status" '^knobs_absent=vm.reclaim_plug,vm.pageout_work$' "the status"
	# a workload SIGKILL ended: a result when the kernel OOM-killed, else a failure
	printf 'writer1\n' >"$g/workloads-killed"
	printf '[ 2.0] Killed process 7 (rl-dd)\n' >"$run/console.log"
	"$RL_TOP/scripts/collect-run.sh" "$run" 1.5 ended 2>/dev/null || fail "an OOM-killed writer failed the run"
	expect_match "$run/status" '^ok$' "the status"
	: >"$run/console.log"
	"$RL_TOP/scripts/collect-run.sh" "$run" 1.5 ended 2>/dev/null && fail "a writer killed without an OOM kill gave an ok run"
	expect_match "$run/status" '^reason=writer1 was killed \(SIGKILL\) without an OOM kill$' "the status"
}

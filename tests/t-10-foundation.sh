# shellcheck shell=bash
# Foundation: the build pipeline, booting, filesystems, hostfs, no root.

t_shellcheck_clean() {
	cd "$RL_TOP" || return
	shellcheck -x scripts/*.sh tests/*.sh
	shellcheck -s sh rootfs/init
	# the guest's scenarios and helpers (busybox sh): a scenario's
	# parameters are read by the runner (SC2034), and SCN_DISK_USE's
	# expression is data for the host, not the shell's (SC2100, SC2125)
	shellcheck -s sh -e SC2034,SC2100,SC2125 rootfs/scenarios/*.scn rootfs/lib/rl-lib.sh rootfs/lib/rl-job.sh rootfs/lib/rl-scenario
}

t_config_fragment_survives() {
	# build-kernel.sh refuses a config that lost a requested option; check
	# the built kernel's own .config for the options the lab depends on.
	local opt
	for opt in CONFIG_EXT4_FS=y CONFIG_XFS_FS=y CONFIG_VFAT_FS=y CONFIG_BTRFS_FS=y \
		CONFIG_MEMCG=y CONFIG_MEMCG_V1=y CONFIG_CGROUP_WRITEBACK=y CONFIG_BLK_CGROUP=y \
		CONFIG_SWAP=y CONFIG_EVENT_TRACING=y CONFIG_DEBUG_FS=y CONFIG_HOSTFS=y \
		CONFIG_BLK_DEV_UBD=y CONFIG_UML_TIME_TRAVEL_SUPPORT=y CONFIG_KUNIT=y \
		CONFIG_GDB_SCRIPTS=y 'CONFIG_LOCALVERSION="-reclaimlab"'; do
		grep -qxF "$opt" "$RL_KOUT/.config" || fail "$opt missing from $RL_KOUT/.config"
	done
	# local sockets only: no IP stack and no network device to reach the host
	grep -qxF CONFIG_UNIX=y "$RL_KOUT/.config" || fail "CONFIG_UNIX missing"
	! grep -qE '^CONFIG_(INET|NETDEVICES|UML_NET)=y' "$RL_KOUT/.config" || fail "the guest has a network"
	grep -qxF CONFIG_LRU_GEN=y "$RL_KOUT/.config" || fail "CONFIG_LRU_GEN missing"
	[ -e "$RL_KOUT/vmlinux-gdb.py" ] || fail "gdb scripts not built"
}

t_boot_uname_marker() {
	local run=$TEST_TMP/boot
	guest "$run" -- 'uname -r; echo hello-from-guest' || fail "guest failed: $(cat "$run/status")"
	expect_match "$run/guest/kernel-release" '-reclaimlab$' "uname -r"
	expect_match "$run/guest/guest.log" '^hello-from-guest$'
	expect_match "$run/status" '^ok$'
	[ "$(cat "$run/guest/exit-status")" = 0 ] || fail "exit-status is not 0"
	expect_no_uml_left "boot"
}

t_exit_status_travels_to_host() {
	local run=$TEST_TMP/exit7 rc=0
	guest "$run" -- 'exit 7' || rc=$?
	[ "$rc" = 7 ] || fail "host exit status $rc, expected the guest's 7"
	expect_match "$run/status" '^failed$'
}

t_four_filesystems_read_write() {
	local run=$TEST_TMP/fs fs
	cat >"$TEST_TMP/fs-job.sh" <<'JOB'
set -eu
for fs in ext4 xfs vfat btrfs; do
	grep -q " /mnt/$fs $fs rw" /proc/mounts || { echo "$fs not mounted rw"; exit 1; }
	dd if=/dev/urandom of=/tmp/ref bs=64k count=64 2>/dev/null
	cp /tmp/ref /mnt/$fs/file
	sync
	echo 3 >/proc/sys/vm/drop_caches
	cmp /tmp/ref /mnt/$fs/file
	echo "$fs read-write ok $(md5sum </mnt/$fs/file | cut -c1-32)"
done
JOB
	guest "$run" --disk ext4 --disk xfs --disk vfat --disk btrfs --job "$TEST_TMP/fs-job.sh" ||
		fail "guest failed: $(cat "$run/guest/guest.log")"
	for fs in ext4 xfs vfat btrfs; do
		expect_match "$run/guest/guest.log" "^$fs read-write ok [0-9a-f]{32}$"
	done
}

t_base_images_stay_pristine() {
	local run=$TEST_TMP/pristine before after
	# Any write to the base image would change its modification time.
	before=$(stat -c '%Y.%y %s' "$RL_IMAGES/ext4.img")
	guest "$run" --disk ext4 -- 'dd if=/dev/zero of=/mnt/ext4/junk bs=1M count=8 2>/dev/null; sync'
	after=$(stat -c '%Y.%y %s' "$RL_IMAGES/ext4.img")
	[ "$before" = "$after" ] || fail "a run changed the base image"
	[ ! -w "$RL_IMAGES/ext4.img" ] || [ "$(id -u)" = 0 ] || fail "base image is writable"
}

t_hostfs_results_reach_host() {
	local run=$TEST_TMP/hostfs token
	token=token-$RANDOM-$$
	guest "$run" -- "echo $token >/results/from-guest.txt; mkdir -p /results/sub; echo x >/results/sub/y"
	[ "$(cat "$run/guest/from-guest.txt")" = "$token" ] || fail "file written in the guest did not reach the host"
	[ -f "$run/guest/sub/y" ] || fail "folder written in the guest did not reach the host"
}

t_unprivileged_boot() {
	local dir=$TEST_TMP/unpriv
	mkdir -p "$dir"
	[ "$(id -u)" != 0 ] || chown "$UNPRIV_USER" "$dir" 2>/dev/null ||
		{ unprivileged true && chown "$UNPRIV_USER" "$dir"; }
	unprivileged "$RL_TOP/scripts/run.sh" --out "$dir/run" --timeout 120 --disk ext4 -- \
		'id -u >/results/uid; touch /mnt/ext4/ok && uname -r' ||
		fail "unprivileged run failed: $(cat "$dir/run/status" 2>/dev/null)"
	expect_match "$dir/run/guest/kernel-release" '-reclaimlab$'
	[ "$(stat -c %U "$dir/run/console.log")" != root ] || [ "$(id -u)" != 0 ] ||
		fail "console.log was written by root"
}

t_hung_guest_is_killed() {
	local run=$TEST_TMP/hang rc=0 start
	start=$(date +%s)
	"$RL_TOP/scripts/run.sh" --out "$run" --timeout 4 -- 'sleep 1000' || rc=$?
	[ "$rc" = 124 ] || fail "exit status $rc, expected 124 for a hung guest"
	expect_match "$run/status" '^hung$'
	[ -s "$run/console.log" ] || fail "console log not kept"
	[ $(($(date +%s) - start)) -lt 30 ] || fail "watchdog took too long"
	expect_no_uml_left hang
}

t_bad_input_is_rejected() {
	local out rc
	for args in "--disk ntfs" "--disk ext4:floppy" "--disk ext4:hdd,qd=0" "--disk ext4:hdd,wbw=99999999999" \
		"--mem lots" "--mem 17179869185G" "--timeout 0" "--bogus" \
		"--kernel /nonexistent/linux"; do
		rc=0
		# shellcheck disable=SC2086 # the options are split into words
		out=$("$RL_TOP/scripts/run.sh" --out "$TEST_TMP/bad-run" $args -- true 2>&1) || rc=$?
		[ "$rc" != 0 ] || fail "'$args' was accepted"
		grep -q "error:" <<<"$out" || fail "'$args' gave no clear error: $out"
		[ ! -e "$TEST_TMP/bad-run" ] || fail "'$args' created a run folder before failing"
	done
	# a run folder path the kernel command line cannot carry: refused
	# before the folder exists
	for out in "$TEST_TMP/q'uote" "$TEST_TMP/sp ace" "$TEST_TMP/com,ma"; do
		"$RL_TOP/scripts/run.sh" --out "$out" -- true 2>/dev/null && fail "run folder '$out' was accepted"
		[ ! -e "$out" ] || fail "the refused run folder '$out' was created"
	done
	out=$("$RL_TOP/scripts/run.sh" --disk ntfs -- true 2>&1) || true
	grep -q "unknown filesystem 'ntfs' (valid: ext4 xfs vfat btrfs)" <<<"$out" ||
		fail "unknown filesystem message does not name the valid ones: $out"
	out=$(KERNEL_FLAVOR=tiny "$RL_TOP/scripts/build-kernel.sh" 2>&1) || true
	grep -q "unknown kernel flavour 'tiny' (valid: normal debug preempt voluntary)" <<<"$out" ||
		fail "unknown flavour not rejected: $out"
}

# run.sh's options are one table (scripts/lib/run-options.sh): --help
# lists each of them, run.sh's parser has a branch for each, one missing a
# value says so, gdb.sh passes on exactly those that take one, and the job
# lines of a matrix take exactly the ones compare.sh writes.
t_run_options_are_one_table() {
	local o out help
	help=$("$RL_TOP/scripts/run.sh" --help)
	for o in "${RUN_OPTIONS[@]}"; do
		grep -qE "^  $o( |\\[=|\$)" <<<"$help" || fail "run.sh --help does not list $o"
		grep -qE "^	($o|-h \| $o)\) " "$RL_TOP/scripts/run.sh" || fail "run.sh's parser has no branch for $o"
		if run_option_takes_value "$o"; then
			out=$("$RL_TOP/scripts/run.sh" "$o" 2>&1) && fail "$o without its value was accepted"
			grep -qF "option $o needs a value" <<<"$out" || fail "$o without a value: $out"
		fi
	done
	[ "$(run_options_with_value)" = "--scenario --mode --set --preset --repeat-number --disk --mem --timeout --out --tt-cpu --cpu --seed --append --job --kernel --kernel-name --wrap" ] ||
		fail "options with a value: $(run_options_with_value)"
	[ "$(run_options_for_jobs)" = "--scenario --mode --set --preset --repeat-number --disk --trace-dat --blktrace --mem --timeout --time-travel=CLOCK --seed --kernel --kernel-name --native" ] ||
		fail "job-line options: $(run_options_for_jobs)"
	out=$("$RL_TOP/scripts/run.sh" --time-travel=fast 2>&1) && fail "--time-travel=fast was accepted"
	grep -q "unknown time-travel mode 'fast'" <<<"$out" || fail "--time-travel=fast: $out"
	out=$("$RL_TOP/scripts/run.sh" --native=yes 2>&1) && fail "--native=yes was accepted"
	grep -q "unknown option '--native=yes' (valid: --scenario " <<<"$out" || fail "--native=yes: $out"
}

t_results_never_overwritten() {
	local run=$TEST_TMP/keep
	mkdir -p "$run" && echo precious >"$run/data"
	if "$RL_TOP/scripts/run.sh" --out "$run" -- true 2>"$TEST_TMP/keep.err"; then
		fail "a non-empty run folder was reused"
	fi
	[ "$(cat "$run/data")" = precious ] || fail "existing results were touched"
}

# The host tools' include rule (scripts/tools/Makefile, README.md): every
# source in a stage folder, each #include a header of its own stage or an
# earlier one, no circle among modules (tests/check-tools-layout.sh).
# The run record owns a run's status and identity: no '@' split, run name
# taken apart or status file touched outside it (tests/check-run-record.sh),
# and the check sees a breach planted in a copy of the scripts.
t_run_record_owns_status_and_identity() {
	"$RL_TOP/tests/check-run-record.sh" "$RL_TOP" || fail "the run record has a bypass (above)"
	mkdir -p "$TEST_TMP/copy/scripts/lib" "$TEST_TMP/copy/scripts/tools/report"
	# shellcheck disable=SC2016 # a line of shell, planted as text
	printf 'x() {\n\thead -1 "$1/status"\n}\n' >"$TEST_TMP/copy/scripts/lib/bad.sh"
	cat >"$TEST_TMP/copy/scripts/tools/report/bad.c" <<'C'
static void f(const char *m) { (void)strchr(m, '@'); }
C
	! "$RL_TOP/tests/check-run-record.sh" "$TEST_TMP/copy" >"$TEST_TMP/breach" || fail "planted breaches passed"
	cat "$TEST_TMP/breach"
	[ "$(grep -c '^breach' "$TEST_TMP/breach")" = 2 ] || fail "not both planted breaches were named"
}

t_tools_include_graph() {
	"$RL_TOP/tests/check-tools-layout.sh" "$RL_TOP/scripts/tools"
}

# The same check on a copy of the tools with a breach planted: an upward
# include, a circle within a stage, a header not named by its folder and a
# source outside the stage folders each fail it, named.
t_tools_include_graph_refuses_breaches() {
	local top=$TEST_TMP/layout t out rc
	t=$top/scripts/tools
	rm -rf "$top"
	mkdir -p "$top/scripts" "$top/rootfs/tools"
	cp -r "$RL_TOP/scripts/tools" "$top/scripts/"
	cp "$RL_TOP/rootfs/tools/size.h" "$top/rootfs/tools/"
	cp -r "$t" "$top/clean"
	"$RL_TOP/tests/check-tools-layout.sh" "$t" || fail "the unchanged copy fails the check"
	# expect_breach REGEX: the check of the copy fails with a line matching REGEX; then the copy is restored
	expect_breach() {
		rc=0
		out=$("$RL_TOP/tests/check-tools-layout.sh" "$t") || rc=$?
		[ "$rc" = 1 ] || fail "exit status $rc, not 1, with /$1/ planted: $out"
		grep -qE -- "$1" <<<"$out" || fail "no line matches /$1/: $out"
		rm -rf "$t"
		cp -r "$top/clean" "$t"
	}
	sed -i '0,/^#include "lib\/util.h"$/s//&\n#include "report\/model.h"/' "$t/lib/record.c"
	grep -q '^#include "report/model.h"$' "$t/lib/record.c" || fail "the upward include was not planted"
	expect_breach '^lib/record\.c:[0-9]+: includes "report/model\.h": report is a later stage than lib '
	# tracestat.h includes completion.h: the other way round closes a circle
	sed -i '0,/^#include <stddef.h>$/s//&\n#include "summarize\/tracestat.h"/' "$t/summarize/completion.h"
	expect_breach '^modules include each other round a circle .*summarize/(completion|tracestat) '
	sed -i 's|^#include "lib/util.h"$|#include "util.h"|' "$t/lib/record.c"
	expect_breach '^lib/record\.c:[0-9]+: includes "util\.h": a tools header is named by its folder'
	sed -i 's|^#include "lib/cli.h"$|#include "lib/../report/html.h"|' "$t/lib/record.c"
	expect_breach '^lib/record\.c:[0-9]+: includes "lib/\.\./report/html\.h": not STAGE/NAME\.h'
	sed -i 's|^#include "lib/cli.h"$|#include "lib/nothing.h"|' "$t/lib/record.c"
	expect_breach '^lib/record\.c:[0-9]+: includes "lib/nothing\.h", which does not exist'
	echo 'int x;' >"$t/stray.c"
	expect_breach '^stray\.c: not in a stage folder'
}

# One runner at a time on a build folder (run-tests.sh's lock): a second
# one, started while this runner holds the lock, is refused before it
# touches the build folder's test logs.
t_second_runner_is_refused() {
	local out rc=0 before
	before=$(stat -c %Y.%s "$RL_BUILD/test-logs/runner.who")
	out=$("$RL_TOP/tests/run-tests.sh" t_boot_uname_marker 2>&1) || rc=$?
	[ "$rc" = 2 ] || fail "a second runner exited $rc, not 2: $out"
	grep -q "^run-tests: another tests/run-tests.sh is running on $RL_BUILD (pid [0-9]*, pattern " <<<"$out" ||
		fail "the refusal does not name the runner: $out"
	! grep -q 'passed' <<<"$out" || fail "the second runner ran tests: $out"
	[ "$(stat -c %Y.%s "$RL_BUILD/test-logs/runner.who")" = "$before" ] ||
		fail "the second runner rewrote runner.who"
}

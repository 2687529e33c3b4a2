#!/bin/bash
# Build benchmarks; each prints its figures.
#
#   scripts/bench-build.sh          the edit-rebuild loop: change one line of
#                                   one patch, rebuild, put it back, rebuild
#   scripts/bench-build.sh --cold   the full build as on a fresh clone with
#                                   an empty ccache, phase by phase, in a
#                                   scratch folder (needs ~3 GB, ~15 min)
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

seconds_since() { echo "$(date +%s.%N) - $1" | bc; }

cold_build() {
	local start t0 phase load
	# global: the EXIT trap runs after this function has returned
	cold_scratch=$(mktemp -d "$RL_BUILD/bench-cold.XXXXXX")
	trap 'rm -rf "$cold_scratch"' EXIT
	note "cold build in $cold_scratch (ccache off)"
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	start=$(date +%s.%N)
	for phase in "--apply-only:unpack the tarball into git, apply the series" \
		"--prepare-only:configure (allnoconfig + fragments)" \
		":compile (make -j$(($(nproc) + 1)) linux scripts_gdb)"; do
		t0=$(date +%s.%N)
		# shellcheck disable=SC2086 # an empty option is no option
		RL_BUILD=$cold_scratch CCACHE_DISABLE=1 "$RL_TOP/scripts/build-kernel.sh" ${phase%%:*} >/dev/null 2>&1 ||
			die "cold build failed in: ${phase#*:} (scripts/build-kernel.sh shows why)"
		printf '%-58s %7.1f s\n' "${phase#*:}" "$(seconds_since "$t0")"
	done
	printf '%-58s %7.1f s  (%s)\n' "full build" "$(seconds_since "$start")" \
		"$(nproc) CPUs, load before: $load"
}

case "${1:-}" in
"") ;;
--cold)
	cold_build
	exit 0
	;;
*) die "unknown option '$1' (valid: --cold)" ;;
esac

[ -x "$RL_KERNEL" ] || die "build the kernel first (make kernel)"
patches=$(mktemp -d "${TMPDIR:-/tmp}/reclaimlab-patches.XXXXXX")
trap 'rm -rf "$patches"' EXIT
cp -r "$RL_TOP"/kernel-patches/. "$patches/"
target=$(grep -l 'pr_err("ubd: bad ubd.model=%s' "$patches"/*.patch) ||
	die "the line this benchmark edits is gone from the series; update scripts/bench-build.sh"
# one line, same length of hunk: a different message text
sed -i 's/pr_err("ubd: bad ubd.model=%s/pr_err("ubd: invalid ubd.model=%s/' "$target"

timed() { # LABEL: runs build-kernel.sh with the given patch folder
	local start
	start=$(date +%s.%N)
	RL_PATCHDIR=$2 "$RL_TOP/scripts/build-kernel.sh" >/dev/null 2>&1 || die "$1: kernel build failed"
	printf '%s: %.1f s\n' "$1" "$(seconds_since "$start")"
}
timed "rebuild after a one-line change to $(basename "$target")" "$patches"
timed "rebuild after restoring it" "$RL_TOP/kernel-patches"

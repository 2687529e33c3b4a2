#!/bin/bash
# Benchmark of the edit-rebuild loop: change one line of one patch, rebuild
# the kernel, then put the patch back and rebuild again.  Prints both
# times.  (The full build from a clean checkout is what CI does; time it
# with `time make kernel` on a fresh clone.)
#   scripts/bench-build.sh
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ -x "$RL_KERNEL" ] || die "build the kernel first (make kernel)"
patches=$(mktemp -d "${TMPDIR:-/tmp}/reclaimlab-patches.XXXXXX")
trap 'rm -rf "$patches"' EXIT
cp "$RL_TOP"/kernel-patches/* "$patches/"
target=$(grep -l 'pr_err("ubd: bad ubd.model=%s' "$patches"/*.patch) ||
	die "the line this benchmark edits is gone from the series; update scripts/bench-build.sh"
# one line, same length of hunk: a different message text
sed -i 's/pr_err("ubd: bad ubd.model=%s/pr_err("ubd: invalid ubd.model=%s/' "$target"

timed() { # LABEL: runs build-kernel.sh with the given patch folder
	local start end
	start=$(date +%s.%N)
	RL_PATCHDIR=$2 "$RL_TOP/scripts/build-kernel.sh" >/dev/null 2>&1 || die "$1: kernel build failed"
	end=$(date +%s.%N)
	printf '%s: %.1f s\n' "$1" "$(echo "$end - $start" | bc)"
}
timed "rebuild after a one-line change to $(basename "$target")" "$patches"
timed "rebuild after restoring it" "$RL_TOP/kernel-patches"

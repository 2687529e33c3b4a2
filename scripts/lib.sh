# shellcheck shell=bash disable=SC2034 # the paths are used by the sourcing scripts
# Shared helpers and paths for reclaimlab's host-side scripts. Sourced, not run.

RL_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RL_BUILD=${RL_BUILD:-$RL_TOP/build}
RL_FLAVOR=${KERNEL_FLAVOR:-normal}
RL_KSRC=${RL_KSRC:-$RL_BUILD/src/linux}
RL_KOUT=$RL_BUILD/kernel/$RL_FLAVOR
RL_KERNEL=$RL_KOUT/linux
RL_ROOTFS=$RL_BUILD/rootfs/rootfs.cpio
# host tools (scripts/tools): they read what a guest left in a run folder
RL_HOST_TOOLS=$RL_BUILD/host-tools
RL_SPLATS=$RL_HOST_TOOLS/rl-splats
RL_IMAGES=$RL_BUILD/images
RL_RESULTS=${RL_RESULTS:-$RL_TOP/results}
# the subfolder of a run folder for what the host derived from the raw
# files (splats, summary rows, histograms); raw files stay as written
RL_DERIVED=derived
RL_FLAVORS="normal debug"
RL_KERNEL_TARBALL=${RL_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reclaimlab/ccache}

die() {
	printf 'reclaimlab: error: %s\n' "$*" >&2
	exit 1
}

note() {
	printf 'reclaimlab: %s\n' "$*" >&2
}

# build_host_tools: build (or bring up to date) scripts/tools' tools.
build_host_tools() {
	make -s -C "$RL_TOP/scripts/tools" OUT="$RL_HOST_TOOLS" >/dev/null ||
		die "cannot build the host tools (make -C scripts/tools)"
}

# The catalogue (scripts/catalogue.tsv): filesystems, device profiles and
# modes, one per line, read as data.
RL_CATALOGUE=$RL_TOP/scripts/catalogue.tsv

# catalogue_field KIND NAME N: field N (3 = the first after the name) of
# the catalogue line KIND NAME; fails if there is none.
catalogue_field() {
	local kind name f3 f4 f5
	while IFS=$'\t' read -r kind name f3 f4 f5; do
		{ [ "$kind" = "$1" ] && [ "$name" = "$2" ]; } || continue
		case "$3" in
		3) echo "$f3" ;;
		4) echo "$f4" ;;
		5) echo "$f5" ;;
		esac
		return 0
	done <"$RL_CATALOGUE"
	return 1
}

# catalogue_names KIND: the names of KIND, space-separated, in file order
catalogue_names() {
	local kind name rest names=""
	while IFS=$'\t' read -r kind name rest; do
		[ "$kind" = "$1" ] && names="$names $name"
	done <"$RL_CATALOGUE"
	echo "${names# }"
}

RL_FILESYSTEMS=$(catalogue_names fs)
RL_PROFILES=$(catalogue_names profile)
RL_MODES=$(catalogue_names mode)

# word_in WORD LIST: true if WORD is one of the space-separated LIST
word_in() {
	local w
	for w in $2; do
		[ "$w" = "$1" ] && return 0
	done
	return 1
}

check_flavor() {
	word_in "$RL_FLAVOR" "$RL_FLAVORS" ||
		die "unknown kernel flavour '$RL_FLAVOR' (valid: $RL_FLAVORS)"
}

# The settings of an emulated disk (ubd.model= of the ubd timing model
# patch); the profiles' values are in the catalogue.
RL_PROFILE_KEYS="rbw wbw seek req lat qd"

# disk_model SPEC: "hdd" or "hdd,wbw=50000,seek=4000" -> the ubd.model=
# value after the unit number, or a die() naming what is wrong.
disk_model() {
	local spec=$1 name params kv key val
	name=${spec%%,*}
	params=$(catalogue_field profile "$name" 3) ||
		die "unknown device profile '$name' (valid: $RL_PROFILES; add ,key=value to change one of: $RL_PROFILE_KEYS)"
	if [ "$name" != "$spec" ]; then
		for kv in $(echo "${spec#*,}" | tr ',' ' '); do
			key=${kv%%=*}
			val=${kv#*=}
			if [ "$key" = "$kv" ] || ! word_in "$key" "$RL_PROFILE_KEYS"; then
				die "bad device setting '$kv' in '$spec' (valid keys: $RL_PROFILE_KEYS, as key=number)"
			fi
			# the ranges patch 0004 accepts: u32, and a queue depth of 1 to 1024
			if ! [[ "$val" =~ ^[0-9]{1,10}$ ]] || [ "$((10#$val))" -gt 4294967295 ]; then
				die "bad value '$val' for $key in '$spec' (valid: a whole number from 0 to 4294967295)"
			fi
			if [ "$key" = qd ] && { [ "$((10#$val))" -lt 1 ] || [ "$((10#$val))" -gt 1024 ]; }; then
				die "bad value '$val' for qd in '$spec' (valid: 1 to 1024)"
			fi
			params=$(echo ",$params" | sed -E "s/,$key=[0-9]+/,$key=$val/; s/^,//")
		done
		name=custom
	fi
	echo "name=$name,$params"
}

# mode_knobs MODE: the sysctl knobs of MODE (the behaviour of one run)
mode_knobs() {
	catalogue_field mode "$1" 3
}

# scenario_job SCENARIO FS MODE "KEY=VALUE ...": the guest job that runs
# SCENARIO on FS with MODE's knobs and every parameter, those given applied
# (rl-scenario-info checked their types; their characters are
# RL_SET_VALUE_CHARS, so single quotes hold them).
scenario_job() {
	local data params
	# shellcheck disable=SC2086 # KEY=VALUE words
	data=$(scenario_info "$1" $4) || exit 1
	params=$(info_value "$data" params)
	echo "export RL_FS=$2"
	echo "export RL_KNOBS='$(mode_knobs "$3")'"
	echo "export RL_SET='$params'"
	echo "exec rl-scenario $1"
}

rl_scenarios() {
	local f
	for f in "$RL_TOP"/rootfs/scenarios/*.scn; do
		basename "$f" .scn
	done | tr '\n' ' ' | sed 's/ $//'
}

# conf_value FILE KEY: the value of the last KEY=... line of a key=value
# file that a user or a guest may have written; read as data, never sourced.
conf_value() {
	[ -f "$1" ] || return 0
	# folders written before 2026-12 quoted their values: 'a b'
	sed -n "s/^$2=//p" "$1" | tail -1 | sed "s/^'\(.*\)'\$/\1/"
}

# Characters a --set value may have: it travels to the guest inside single
# quotes and into matrix.conf, so nothing a shell gives a meaning to.
RL_SET_VALUE_CHARS='A-Za-z0-9._:+,/-'

# scenario_info SCENARIO [KEY=VALUE...]: the scenario file as key=value data
# (rl-scenario-info, the one reader of scenario files: settings, use,
# params with the values applied after their type was checked), or a die()
# with its message.  The file is never run on the host.
scenario_info() {
	local file=$RL_TOP/rootfs/scenarios/$1.scn out kv set_args=()
	shift
	for kv in "$@"; do
		set_args+=(--set "$kv")
	done
	[ -x "$RL_HOST_TOOLS/rl-scenario-info" ] || build_host_tools
	out=$("$RL_HOST_TOOLS/rl-scenario-info" "${set_args[@]}" "$file" 2>&1) ||
		die "${out#rl-scenario-info: }"
	printf '%s\n' "$out"
}

# info_value DATA KEY: the value of KEY in scenario_info's (or any
# key=value) DATA
info_value() {
	local line
	while IFS= read -r line; do
		[ "${line%%=*}" != "$2" ] || { echo "${line#*=}"; return 0; }
	done <<<"$1"
}

# size_bytes SIZE: "512M" -> 536870912 (K, M, G, T suffixes, powers of
# 1024; none = bytes); fails with no output on anything else.
size_bytes() {
	local n=${1%[kKmMgGtT]} shift=0
	case "$1" in
	*[kK]) shift=10 ;;
	*[mM]) shift=20 ;;
	*[gG]) shift=30 ;;
	*[tT]) shift=40 ;;
	esac
	[[ "$n" =~ ^[0-9]{1,18}$ ]] || return 1
	# at most 2^62 bytes, so that nothing downstream overflows
	[ "$((10#$n))" -le $(((1 << 62) >> shift)) ] || return 1
	echo $((10#$n << shift))
}

# human_size BYTES: "1.5 GiB", "200.0 MiB"
human_size() {
	awk -v b="$1" 'BEGIN {
		if (b >= 2^30) printf "%.1f GiB\n", b / 2^30
		else printf "%.1f MiB\n", b / 2^20 }'
}

# avail_bytes DIR: bytes an ordinary user may still write on DIR's filesystem
avail_bytes() {
	df -P -B1 "$1" 2>/dev/null | awk 'NR == 2 { print $4 }'
}

# check_guest_mem SIZE: die unless a guest of SIZE memory can run here.
check_guest_mem() {
	local bytes host shm=${RL_TMPDIR:-/dev/shm} shm_free
	local what=${RL_MEM_SOURCE:---mem}
	bytes=$(size_bytes "$1") || die "bad $what '$1' (use a size like 512M or 1G)"
	[ "$bytes" -ge $((64 << 20)) ] || die "$what $1 is too small for a guest (valid: 64M or more)"
	host=$(awk '/^MemTotal:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo)
	[ "$bytes" -le "$host" ] ||
		die "--mem $1 does not fit: this host has $(human_size "$host") of memory"
	# UML's memory is a file in TMPDIR: the guest dies of SIGBUS if it cannot grow
	shm_free=$(avail_bytes "$shm")
	[ -n "$shm_free" ] || die "cannot read the free space of '$shm' (set RL_TMPDIR to a writable tmpfs)"
	[ "$bytes" -le "$shm_free" ] ||
		die "--mem $1 does not fit: '$shm' (guest memory and disk overlays) has $(human_size "$shm_free") free; use a smaller --mem or RL_TMPDIR"
}

# Guest clocks (run.sh --time-travel=MODE): basic follows host wall time
# while the guest computes, cpu charges a cost model, inf-cpu charges nothing.
RL_CLOCKS="basic cpu inf-cpu"
RL_DEFAULT_CLOCK=cpu

# Prices of the time-travel=cpu cost model (patch 0011), as tt-cpu= names them.
RL_TT_CPU_ITEMS="syscall_ns copy_ns_per_kb fault_ns alloc_ns scan_ns_per_folio reclaim_ns_per_folio io_ns_per_kb switch_ns fork_ns"

# check_tt_cpu PRICES: die unless "name=ns,name=ns" names known prices with
# whole numbers of at most 10 ms each (what the kernel accepts).
check_tt_cpu() {
	local kv
	[ -n "$1" ] || return 0
	for kv in ${1//,/ }; do
		if ! word_in "${kv%%=*}" "$RL_TT_CPU_ITEMS" || ! [[ "$kv" =~ ^[a-z_]+=[0-9]{1,8}$ ]] ||
			[ "${kv#*=}" -gt 10000000 ]; then
			die "bad --tt-cpu price '$kv' (valid: NAME=NS with NS at most 10000000; names: $RL_TT_CPU_ITEMS)"
		fi
	done
}

# free_host_cpu: a host CPU that no other running guest of this machine is
# pinned to (each run leaves its CPU in its TMPDIR), else the least used.
free_host_cpu() {
	local n c best=0 best_use=-1 use f
	n=$(nproc)
	for c in $(seq 0 $((n - 1))); do
		use=0
		for f in "${RL_TMPDIR:-/dev/shm}"/reclaimlab.*/cpu; do
			[ -f "$f" ] && [ "$(cat "$f" 2>/dev/null)" = "$c" ] && use=$((use + 1))
		done
		if [ "$best_use" -lt 0 ] || [ "$use" -lt "$best_use" ]; then
			best=$c
			best_use=$use
		fi
	done
	echo "$best"
}

# Free space a run folder's filesystem must have before a guest starts:
# console log, traces and counters of one run stay well below it.
RL_MIN_FREE=${RL_MIN_FREE:-64M}

# shellcheck shell=bash
# The kernels of a matrix (compare.sh --kernel NAME=SPEC, repeatable): what
# a spec names, and building each once into build/kernels/NAME.  Sourced by
# lib.sh.
#
#   lab             the lab's own kernel: kernel-patches/ on linux-source-6.12
#                   (build/kernel/FLAVOUR, as `make kernel` builds it)
#   lab:FLAVOUR     the lab's own kernel in another flavour (build/kernel/
#                   FLAVOUR, as `make KERNEL_FLAVOR=FLAVOUR kernel` builds
#                   it), e.g. lab:preempt beside lab: the preemption models
#   series:DIR      the series folder DIR: its `series` and patches, its
#                   `source` (the Debian package, e.g. linux-source-6.1) and
#                   its *.config fragments after the lab's config, e.g.
#                   kernel-patches/6.1 (6.1 with the lab's UML patches only)
#   git:REPO@REV    commit REV of the kernel git tree REPO, as it is, with the
#                   lab's config (a tree that carries the lab's UML patches,
#                   e.g. a worktree of build/src/linux with changes of one's own)
#   native          the host's running kernel, no UML: run.sh --native
#                   (scripts/lib/native.sh, docs/native.md); root only, mode
#                   vanilla only

RL_KERNEL_SPECS="lab lab:FLAVOUR series:DIR git:REPO@REV native"

# check_kernel_name NAME WHAT: die unless NAME can be a kernel's name; it
# goes into run names (SCENARIO.FS.MODE@NAME.rN) and folders
check_kernel_name() {
	[[ "$1" =~ ^[A-Za-z0-9][A-Za-z0-9._+-]*$ ]] ||
		die "bad kernel name '$1' in $2 (valid: letters, digits and . _ + -, starting with a letter or digit)"
}

# kernel_spec NAME=SPEC: check a --kernel and print it with DIR or REPO
# made absolute (matrix.conf keeps it so, for --resume from anywhere); die
# naming what is wrong
# check_kernel_word VALUE: die unless one --kernel is one word, checked
# whole before the list of kernels is split on spaces (a space in it would
# make two, and the message would name a piece of it)
check_kernel_word() {
	[[ "$1" =~ ^[^[:space:]]+$ ]] ||
		die "bad --kernel '$(printable "$1")' (valid: one NAME=SPEC with no space, SPEC one of: $RL_KERNEL_SPECS; give --kernel once per kernel)"
}

kernel_spec() {
	local name=${1%%=*} spec=${1#*=} path rev
	[[ "$1" == *=* ]] || die "bad --kernel '$1' (valid: NAME=SPEC, SPEC one of: $RL_KERNEL_SPECS)"
	check_kernel_name "$name" "--kernel '$1'"
	[[ "$spec" =~ ^[A-Za-z0-9._/+@:~-]+$ ]] ||
		die "bad kernel spec '$spec' in --kernel '$1' (valid: $RL_KERNEL_SPECS; paths of letters, digits and . _ / + @ : ~ -)"
	case "$spec" in
	lab | native) ;;
	lab:*)
		word_in "${spec#lab:}" "$RL_FLAVORS" ||
			die "kernel $name: unknown flavour '${spec#lab:}' in --kernel '$1' (valid: $RL_FLAVORS)"
		;;
	series:*)
		path=${spec#series:}
		[ -f "$path/series" ] ||
			die "kernel $name: '$path' has no series file (valid: a series folder, e.g. kernel-patches/6.1)"
		spec=series:$(cd "$path" && pwd)
		;;
	git:*@*)
		path=${spec#git:}
		rev=${path##*@}
		path=${path%@*}
		git -C "$path" rev-parse -q --verify "$rev^{commit}" >/dev/null 2>&1 ||
			die "kernel $name: no commit '$rev' in the git tree '$path'"
		spec=git:$(cd "$path" && pwd)@$rev
		;;
	*) die "unknown kernel spec '$spec' in --kernel '$1' (valid: $RL_KERNEL_SPECS)" ;;
	esac
	echo "$name=$spec"
}

# kernel_places NAME SPEC: "SERIES-FOLDER SOURCE-TREE BUILD-FOLDER GIT" of a
# checked spec, what build-kernel.sh --kernel builds from and into: another
# kernel's tree and build are build/kernels/NAME/src and /FLAVOUR; GIT is
# REPO@REV or -
kernel_places() {
	local dir=$RL_BUILD/kernels/$1
	case "$2" in
	lab) echo "$RL_TOP/kernel-patches $RL_KSRC $RL_KOUT -" ;;
	lab:*) echo "$RL_TOP/kernel-patches $RL_KSRC $RL_BUILD/kernel/${2#lab:} -" ;;
	series:*) echo "${2#series:} $dir/src $dir/$RL_FLAVOR -" ;;
	git:*) echo "$RL_TOP/kernel-patches $dir/src $dir/$RL_FLAVOR ${2#git:}" ;;
	esac
}

# kernel_build NAME SPEC: build the kernel of a checked spec (or bring it
# up to date: build-kernel.sh rebuilds only what changed) and print the
# path of its binary; the build's output goes to build/kernels/NAME.log
kernel_build() {
	local out
	out=$(kernel_places "$1" "$2" | cut -d' ' -f3)
	mkdir -p "$RL_BUILD/kernels"
	note "kernel $1 ($2): building or checking $out"
	"$RL_TOP/scripts/build-kernel.sh" --kernel "$1=$2" >"$RL_BUILD/kernels/$1.log" 2>&1 || {
		tail -5 "$RL_BUILD/kernels/$1.log" >&2
		die "kernel $1 ($2) did not build; log: $RL_BUILD/kernels/$1.log"
	}
	echo "$out/linux"
}

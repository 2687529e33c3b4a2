# shellcheck shell=bash disable=SC2034 # used by the scripts that source lib.sh
# A matrix over several machines (compare.sh --hosts): the hosts file, the
# ssh command, and the bundle, what a host needs to run one run, named by
# its content hash and copied to each host once.  Sourced by lib.sh.
#
# On a host everything lives beneath RL_REMOTE_DIR, relative to the login
# folder ssh starts in: bundles/HASH/ (scripts/run.sh with what it reads,
# and build/: kernel, rootfs, images, tools disk, host tools) and runs/
# (the scratch folders of runs under way).

RL_REMOTE_DIR=.cache/reclaimlab
# BatchMode: a host that wants a password fails at once instead of
# waiting for an answer no one can give inside parallel; a host that is
# down fails in 20 s, not in the minutes of TCP's own timeout
RL_SSH=${RL_SSH:-ssh -o BatchMode=yes -o ConnectTimeout=20}

# The forms of a hosts file's lines, for the error messages
RL_HOSTS_FORMS="':' (this machine), HOST or USER@HOST, each optionally with N/ in front for N runs at once (e.g. 2/lab2); '#' starts a comment line"

# check_login LOGIN: die unless LOGIN is ':' or [USER@]HOST; it becomes a
# word of parallel's and ssh's command lines
check_login() {
	[[ "$1" = : || "$1" =~ ^([a-z_][a-z0-9_.-]{0,31}@)?[A-Za-z0-9][A-Za-z0-9._-]{0,252}$ ]] ||
		die "bad host '$1' (valid: $RL_HOSTS_FORMS)"
}

# read_hosts FILE: the hosts of FILE, "LOGIN SLOTS" a line (no SLOTS
# when the line gives none); die naming the first bad line.  The file is
# read as data; parallel is given the checked logins, never the file.
read_hosts() {
	local line n=0 slots login seen=" " out=""
	[ -r "$1" ] || die "hosts file '$1' not readable"
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		# surrounding blanks
		line=${line#"${line%%[![:space:]]*}"}
		line=${line%"${line##*[![:space:]]}"}
		{ [ -n "$line" ] && [ "${line:0:1}" != "#" ]; } || continue
		slots="" login=$line
		if [[ "$line" =~ ^([1-9][0-9]{0,3})/(.*)$ ]]; then
			slots=${BASH_REMATCH[1]} login=${BASH_REMATCH[2]}
		fi
		(check_login "$login") 2>/dev/null ||
			die "hosts file '$1' line $n: bad entry '$line' (valid: $RL_HOSTS_FORMS)"
		[[ "$seen" != *" $login "* ]] || die "hosts file '$1' line $n: host '$login' given twice"
		seen="$seen$login "
		out="$out$login${slots:+ $slots}"$'\n'
	done <"$1"
	[ -n "$out" ] || die "hosts file '$1' names no host (valid lines: $RL_HOSTS_FORMS)"
	printf '%s' "$out"
}

# check_ssh_command "CMD ARGS": die unless CMD can be run
check_ssh_command() {
	local words
	read -ra words <<<"$1"
	{ [ "${#words[@]}" -gt 0 ] && command -v "${words[0]}" >/dev/null; } ||
		die "ssh command '$1' not found (valid: a command run as CMD HOST COMMAND, like ssh)"
}

# on_host LOGIN COMMAND: run the shell command line COMMAND on LOGIN
# through RL_SSH, as ssh runs it: in the login folder, by the login shell
on_host() {
	local ssh
	read -ra ssh <<<"$RL_SSH"
	"${ssh[@]}" "$1" "$2"
}

# check_remote_words WORD...: die unless each WORD can go into a command
# line a host's shell reads, as it is (no quoting needed, none to get wrong)
check_remote_words() {
	local w
	for w in "$@"; do
		[[ "$w" =~ ^[A-Za-z0-9._:+,/=@-]+$ ]] ||
			die "'$w' cannot go to a host's shell (valid: letters, digits and . _ : + , / = @ -)"
	done
}

# bundle_stage DIR "FILE ...": make DIR a tree of links to what a run on
# another host needs (its content, not the links, goes to the host):
# run.sh and its helpers, the scenario files, the kernel (with the release
# and series files run.conf records), the rootfs, the host tools, and the
# images FILE ... of RL_IMAGES (the disks and swap of the matrix, the tools
# disk).  A bundle's build/ is its RL_BUILD.
bundle_stage() {
	local dir=$1 f tool
	mkdir -p "$dir/scripts" "$dir/rootfs" "$dir/build/kernel/$RL_FLAVOR/include/config" \
		"$dir/build/rootfs" "$dir/build/images" "$dir/build/host-tools"
	for f in run.sh collect-run.sh lib.sh lib catalogue.tsv; do
		ln -s "$RL_TOP/scripts/$f" "$dir/scripts/$f"
	done
	ln -s "$RL_TOP/rootfs/scenarios" "$dir/rootfs/scenarios"
	for f in linux include/config/kernel.release reclaimlab-series; do
		ln -s "$RL_KOUT/$f" "$dir/build/kernel/$RL_FLAVOR/$f"
	done
	ln -s "$RL_ROOTFS" "$dir/build/rootfs/rootfs.cpio"
	for tool in "$RL_HOST_TOOLS"/rl-*; do
		[ -x "$tool" ] && ln -s "$tool" "$dir/build/host-tools/${tool##*/}"
	done
	for f in $2; do
		ln -s "$RL_IMAGES/$f" "$dir/build/images/$f"
	done
}

# bundle_tar DIR: the staged bundle DIR as a tar stream, the same bytes for
# the same content: sorted, no owners or times, images sparse (only their
# data is read; a 6G image with 100M of data: 0.5 s)
bundle_tar() {
	tar -c --dereference --sparse --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
		-C "$1" .
}

# bundle_hash DIR: the name of the staged bundle DIR, its content's SHA-256
bundle_hash() {
	local hash
	hash=$(set -o pipefail; bundle_tar "$1" | sha256sum) || die "cannot read the bundle's files (staged in $1)"
	echo "${hash%% *}"
}

# bundle_to_host LOGIN DIR HASH: copy the staged bundle DIR to LOGIN as
# RL_REMOTE_DIR/bundles/HASH unless it is there; false if the host cannot
# be reached or the copy fails.  The copy is unpacked beside and renamed
# at the end, so a bundle on a host is always whole.
bundle_to_host() {
	local b=$RL_REMOTE_DIR/bundles part rc=0
	on_host "$1" "test -d $b/$3" </dev/null || rc=$?
	# 1: not there; anything else: ssh failed (255) or the shell did
	[ "$rc" = 1 ] || return "$rc"
	part=$3.part.$$.$(hostname -s)
	check_remote_words "$part"
	note "copying bundle ${3:0:12} to $1"
	(
		set -o pipefail
		bundle_tar "$2" | on_host "$1" "mkdir -p $b && cd $b && rm -rf $part && mkdir $part &&
			tar -x --no-same-owner -C $part && { mv -T $part $3 || rm -rf $part; } && test -d $3"
	)
}

# host_cpus LOGIN: the number of CPUs of LOGIN (':' is this machine), the
# runs it takes at once when its line gives no N/; false if it cannot say
host_cpus() {
	local n
	if [ "$1" = : ]; then
		nproc
		return
	fi
	n=$(on_host "$1" nproc </dev/null) && [[ "$n" =~ ^[1-9][0-9]{0,3}$ ]] && echo "$n"
}

# remote_run_command HASH NAME OPTION...: the command line that runs
# run.sh of bundle HASH on a host, into a scratch folder NAME (the run's
# name: the guest sees it); it prints "SCRATCH PID" first.  RL_BUILD goes:
# the bundle's scripts take their build/ (an ssh to the same machine
# could pass the caller's).
remote_run_command() {
	local hash=$1 name=$2 runs=$RL_REMOTE_DIR/runs
	shift 2
	check_remote_words "$name" "$@"
	# shellcheck disable=SC2016 # $d and $$ are the host shell's
	printf 'mkdir -p %s && d=$(mktemp -d %s/XXXXXXXX) && echo "$d $$" && exec env -u RL_BUILD KERNEL_FLAVOR=%s %s/bundles/%s/scripts/run.sh --out "$d/%s" %s >/dev/null\n' \
		"$runs" "$runs" "$RL_FLAVOR" "$RL_REMOTE_DIR" "$hash" "$name" "$*"
}

# check_scratch TEXT: die unless TEXT is a scratch folder remote_run_command
# made (it goes back into a host's command line)
check_scratch() {
	[[ "$1" =~ ^${RL_REMOTE_DIR//./\\.}/runs/[A-Za-z0-9]{8}$ ]] ||
		die "the host gave '$1' as the run's scratch folder (valid: $RL_REMOTE_DIR/runs/XXXXXXXX)"
}

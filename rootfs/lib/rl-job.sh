# shellcheck shell=sh
# The guest's job step, one copy for both backends: the run's settings
# (job.env), its disks mounted at /mnt/FS, the job (job.sh) run with its
# output in guest.log and its exit status in exit-status, the disks
# unmounted.  rootfs/init sources it in the UML guest
# (/reclaimlab/bin/rl-job.sh).  The native backend (scripts/lib/native.sh,
# native_init) sources the checkout's copy in the run's mount namespace to
# mount the disks under its chroot's root, and runs the job inside the
# chroot with the copy it installs there at /reclaimlab/bin.  It is the
# lab's own file in both: nothing of it comes from a guest.  POSIX sh
# (busybox sh in the guest; the host's sh and bash natively): functions and
# names of their own (rl_job_*), no local variables.

# The disks the job step mounted: "DEVICE FS OPTIONS" lines, the options
# the host's catalogue gives FS (rl_mount_options, rl-scenario read it).
RL_DISKS_TABLE=/tmp/rl-disks

# Who speaks in the step's messages (the console): rootfs/init or
# native_init
RL_JOB_NAME=${RL_JOB_NAME:-reclaimlab-init}

# rl_job_settings RESULTS: every setting of the run, from RESULTS/job.env,
# which the host wrote (the one channel of settings into the guest:
# scripts/run.sh)
rl_job_settings() {
	# shellcheck disable=SC1091 # written by the host per run
	. "$1/job.env"
}

# rl_job_mount_disks ROOT DISK...: each DISK, NAME:FS:OPTIONS (a device
# /dev/NAME, as job.env's RL_DISKS gives them: ubda:ext4:OPTIONS), mounted
# at ROOT/mnt/FS with OPTIONS and recorded in ROOT$RL_DISKS_TABLE (ROOT
# empty in the guest; the chroot's root natively).  The first disk that
# cannot be mounted stops it: its message on the console, rl_job_failed
# set to it, and false.
rl_job_mount_disks() {
	rl_job_root=$1
	shift
	rl_job_failed=""
	: >"$rl_job_root$RL_DISKS_TABLE"
	for rl_job_d in "$@"; do
		rl_job_dev=/dev/${rl_job_d%%:*}
		rl_job_fs=${rl_job_d#*:}
		rl_job_opts=${rl_job_fs#*:}
		rl_job_fs=${rl_job_fs%%:*}
		echo "$rl_job_dev $rl_job_fs $rl_job_opts" >>"$rl_job_root$RL_DISKS_TABLE"
		mkdir -p "$rl_job_root/mnt/$rl_job_fs"
		if ! mount -t "$rl_job_fs" -o "$rl_job_opts" "$rl_job_dev" "$rl_job_root/mnt/$rl_job_fs"; then
			rl_job_failed="cannot mount $rl_job_dev ($rl_job_fs) on /mnt/$rl_job_fs"
			echo "$RL_JOB_NAME: $rl_job_failed"
			return 1
		fi
	done
}

# rl_job_run RESULTS: the job, RESULTS/job.sh, run by sh in RESULTS; its
# output (stdout and stderr) on the console and in RESULTS/guest.log, its
# exit status in RESULTS/exit-status (a channel of its own, apart from the
# console)
rl_job_run() {
	cd "$1" || return 1
	( sh "$1/job.sh"; echo $? >/tmp/job-status ) 2>&1 | tee "$1/guest.log"
	cp /tmp/job-status "$1/exit-status"
}

# rl_job_unmount_disks ROOT: unmount what rl_job_mount_disks ROOT mounted
# (what its table names), then sync
rl_job_unmount_disks() {
	while read -r _ rl_job_fs _; do
		umount "$1/mnt/$rl_job_fs" || echo "$RL_JOB_NAME: umount /mnt/$rl_job_fs failed"
	done <"$1$RL_DISKS_TABLE"
	sync
}

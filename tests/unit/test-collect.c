// SPDX-License-Identifier: GPL-2.0
/* Unit tests of scripts/tools/collect/collect.c: a run's outcome from its console and guest. */
#include "check.h"
#include "collect/collect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *text_file(const char *text)
{
	FILE *f = tmpfile();

	if (f) {
		fputs(text, f);
		rewind(f);
	}
	return f;
}

TEST(test_console_read_once_for_every_fact)
{
	FILE *in = text_file(
		"[    1.000000] ubd: bad ubd.model=0,name=x: unknown key\n"
		"[    2.000000] Memory cgroup out of memory: Killed process 42 (rl-dd) total-vm:1kB\n"
		"[    2.100000] Out of memory: Killed process 43 (rl-dd)\n"
		"[    2.200000] oom_reaper: reaped process 43 (rl-dd)\n"
		"[    3.000000] ------------[ cut here ]------------\n"
		"[    3.000001] WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 f+0x1/0x2\n"
		"[    3.000002] ---[ end trace 0000000000000000 ]---\n"
		"Killed process x (not a pid)\n");
	char list[1024] = "", kinds[128];
	FILE *l = text_file("");
	struct collect_console c;
	size_t n;

	CHECK(in && l);
	CHECK_EQ_INT(collect_console(in, l, NULL, &c), 0);
	CHECK_EQ_INT((int)c.oom_kills, 2);
	CHECK_EQ_INT((int)c.model_errors, 1);
	CHECK_EQ_INT((int)c.nsplats, 1);
	rewind(l);
	n = fread(list, 1, sizeof(list) - 1, l);
	list[n] = '\0';
	CHECK(strstr(list, "warning: WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1") == list);
	collect_splat_kinds(&c, kinds, sizeof(kinds));
	CHECK_STR(kinds, "warning:1");
	fclose(in);
	fclose(l);
}

TEST(test_splat_kinds_in_name_order)
{
	struct collect_console c;
	char kinds[128];

	memset(&c, 0, sizeof(c));
	collect_splat_kinds(&c, kinds, sizeof(kinds));
	CHECK_STR(kinds, "");
	c.splats[SPLAT_WARNING] = 2;
	c.splats[SPLAT_BUG] = 1;
	c.splats[SPLAT_LOCKDEP] = 3;
	collect_splat_kinds(&c, kinds, sizeof(kinds));
	CHECK_STR(kinds, "bug:1,lockdep:3,warning:2");
}

TEST(test_status_of_each_ending)
{
	struct collect_console c;
	int rc;

	memset(&c, 0, sizeof(c));
	CHECK_STR(collect_status(COLLECT_HUNG, 1, 0, 0, &c, &rc), "hung");
	CHECK_EQ_INT(rc, 124);
	CHECK_STR(collect_status(COLLECT_ENDED, 1, 0, 0, &c, &rc), "ok");
	CHECK_EQ_INT(rc, 0);
	CHECK_STR(collect_status(COLLECT_ENDED, 1, 3, 0, &c, &rc), "failed");
	CHECK_EQ_INT(rc, 3);
	/* an exit status refused or not a number from 0 to 255 */
	CHECK_STR(collect_status(COLLECT_ENDED, 1, -1, 0, &c, &rc), "failed");
	CHECK_EQ_INT(rc, 125);
	CHECK_STR(collect_status(COLLECT_ENDED, 0, 0, 0, &c, &rc), "crashed");
	CHECK_EQ_INT(rc, 125);
	CHECK_STR(collect_status(COLLECT_INTERACTIVE, 0, 0, 0, &c, &rc), "ok");
	c.nsplats = 1;
	CHECK_STR(collect_status(COLLECT_ENDED, 1, 0, 0, &c, &rc), "splat");
	CHECK_EQ_INT(rc, 1);	/* never 0 for a run that is not ok */
	CHECK_STR(collect_status(COLLECT_INTERACTIVE, 0, 0, 0, &c, &rc), "crashed");
	/* a workload SIGKILL ended: a result with an OOM kill, else a failure */
	c.nsplats = 0;
	CHECK_STR(collect_status(COLLECT_ENDED, 1, 0, 1, &c, &rc), "failed");
	CHECK_EQ_INT(rc, 1);
	c.oom_kills = 1;
	CHECK_STR(collect_status(COLLECT_ENDED, 1, 0, 1, &c, &rc), "ok");
	c.nsplats = 1;
	/* a disk without its model would have run at host speed */
	c.model_errors = 1;
	CHECK_STR(collect_status(COLLECT_ENDED, 1, 0, 0, &c, &rc), "failed");
	CHECK_EQ_INT(rc, 1);
}

TEST(test_guest_line_is_bounded_data)
{
	char buf[64];

	collect_guest_line("3.25\nexit_status=0\n", "0123456789.", 20, buf, sizeof(buf));
	CHECK_STR(buf, "3.25");
	collect_guest_line("\x1b[31mrl-dd: bad $(id)\n", "abcdefghijklmnopqrstuvwxyz -:()", 200, buf,
			   sizeof(buf));
	CHECK_STR(buf, "mrl-dd: bad (id)");	/* the escape byte and [ go, as tr -cd drops them */
	collect_guest_line("123456789", "0123456789", 4, buf, sizeof(buf));
	CHECK_STR(buf, "1234");
	collect_guest_line(NULL, "0", 4, buf, sizeof(buf));
	CHECK_STR(buf, "");
}

TEST(test_host_failure_record)
{
	struct collect_host_failure h;

	CHECK_EQ_INT(collect_host_failure(NULL, &h), 0);
	CHECK_STR(h.step, "");
	CHECK_EQ_INT(h.disk_full, 0);
	CHECK_EQ_INT(collect_host_failure("step=disks\nreason=mkfs of ext4 failed: no space\n", &h), 1);
	CHECK_STR(h.step, "disks");
	CHECK_STR(h.reason, "mkfs of ext4 failed: no space");
	CHECK_EQ_INT(h.disk_full, 0);
	/* a full disk alone is a failure; the last line of a key wins */
	CHECK_EQ_INT(collect_host_failure("disk_full=0\ndisk_full=1\n", &h), 1);
	CHECK_EQ_INT(h.disk_full, 1);
	CHECK_STR(h.step, "");
	/* values are bounded data: no escapes, no second line, no new keys */
	CHECK_EQ_INT(collect_host_failure("step=job\x1b[1m;x\nreason=a\007b\ndisk_full=yes\n", &h), 1);
	CHECK_STR(h.step, "job1mx");
	CHECK_STR(h.reason, "ab");
	CHECK_EQ_INT(h.disk_full, 0);
	CHECK_EQ_INT(collect_host_failure("nothing here\n", &h), 0);
}

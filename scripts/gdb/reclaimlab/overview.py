# rl-help: the lab's commands, and which lx- helpers work on UML.
import gdb

from reclaimlab.setup import LX_BROKEN_ON_UML


class RlHelp(gdb.Command):
    """Summary of reclaimlab's gdb commands and of the lx- helpers on UML."""

    def __init__(self):
        super().__init__("rl-help", gdb.COMMAND_SUPPORT)

    def invoke(self, arg, from_tty):
        gdb.write(
            "reclaimlab gdb commands (help CMD for details):\n"
            "  rl-break-reclaim-wait [-start] [-trace] [-reason R]  break in the reclaim wait path\n"
            "  rl-folio-flags EXPR                                  folio flags in words\n"
            "  rl-bdi-works [EXPR|NAME]                             queued writeback works\n"
            "lx- helpers that work on this UML kernel: lx-ps lx-dmesg lx-version lx-cmdline\n"
            "  lx-mounts lx-cpus lx-timerlist lx-configdump lx-device-list-bus\n"
            "  lx-device-list-class lx-list-check lx-lsmod, $lx_current() $lx_task_by_pid(N)\n"
            "  $lx_thread_info(t) $container_of(p, \"type\", \"field\") $lx_per_cpu(var, 0)\n"
            "lx- helpers that do not:\n")
        for k, v in LX_BROKEN_ON_UML.items():
            gdb.write("  %s: %s\n" % (k, v))

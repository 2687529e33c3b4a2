# reclaimlab's gdb helpers for the lab's User-Mode Linux kernel, one module
# per subject as in the kernel's scripts/gdb/linux/.  scripts/gdb/reclaimlab.gdb
# imports reclaimlab.loader, which imports the others and adds the commands:
#
#   utils             symbol and type lookup, lists, frames
#   kernel_constants  flag and enum values read from the kernel being debugged
#   header_defines    the #defines the debug info lacks, checked against the
#                     kernel's headers (also a unit check: run it with python3)
#   machine_code      functions' code: inlined copies, calls, flag tests
#   setup             lx- helpers, source path, detach refused in start mode
#   timekeeping       HZ, ktime_get() of the stopped kernel, timeouts
#   tasks             the current task, reclaim_task_class()
#   cgroups           memcg and cgroup names
#   reclaim_wait      rl-break-reclaim-wait
#   folios            rl-folio-flags
#   writeback         rl-bdi-works
#   overview          rl-help

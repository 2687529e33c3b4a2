# reclaimlab: gdb setup for the lab's User-Mode Linux kernel.
#
#   gdb -x scripts/gdb/reclaimlab.gdb --args build/kernel/normal/linux ...
#
# scripts/gdb.sh loads this for you (start, attach and batch modes).  It
# sets up UML's signals and forks, then loads the Python package
# scripts/gdb/reclaimlab/ (its loader module), which loads the kernel's lx-
# helpers, points the source path at the patched tree (build/src/linux)
# and adds the lab commands: rl-break-reclaim-wait, rl-folio-flags,
# rl-bdi-works (see rl-help).

# --- UML's own signals -----------------------------------------------------
# UML runs on host signals: SIGSEGV is its page fault, SIGALRM/SIGVTALRM
# its timer, SIGIO its interrupts, SIGUSR1 the time-travel and IRQ-thread
# wakeups, SIGWINCH console size changes, SIGCHLD its helper processes.
# They must reach the kernel untouched and must not stop gdb.  SIGPIPE and
# SIGPROF are blocked by UML itself; listed so that nothing surprises.
# SIGINT stays gdb's (Ctrl-C stops the kernel and is not passed on), SIGTRAP
# is gdb's breakpoints.  SIGILL/SIGBUS/SIGFPE are not handled here: UML
# gets them only from a real bug, and then gdb should stop.
handle SIGSEGV nostop noprint pass
handle SIGUSR1 nostop noprint pass
handle SIGIO nostop noprint pass
handle SIGALRM nostop noprint pass
handle SIGVTALRM nostop noprint pass
handle SIGCHLD nostop noprint pass
handle SIGWINCH nostop noprint pass
handle SIGPIPE nostop noprint pass
handle SIGPROF nostop noprint pass

# --- UML's processes -------------------------------------------------------
# UML forks helpers and one host process per guest address space, which it
# ptrace()s itself: gdb stays with the kernel process and lets them go.
set follow-fork-mode parent
set detach-on-fork on
set follow-exec-mode same
set print inferior-events off
set print thread-events off

# --- output ----------------------------------------------------------------
set pagination off
set print pretty on
set print frame-arguments scalars

# --- lab helpers (Python) --------------------------------------------------
python
import os
_rl_dir = os.environ.get("RL_GDB_DIR")
if not _rl_dir:
    # started by hand: find scripts/gdb from the kernel's path,
    # <top>/build/kernel/<flavour>/linux
    _rl_k = gdb.current_progspace().filename or ""
    _rl_top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(_rl_k))))) if _rl_k else ""
    _rl_dir = os.path.join(_rl_top, "scripts", "gdb") if _rl_top else ""
if os.path.exists(os.path.join(_rl_dir, "reclaimlab", "loader.py")):
    import sys
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    if _rl_dir not in sys.path:
        sys.path.insert(0, _rl_dir)
    if "reclaimlab.loader" in sys.modules:
        gdb.write("reclaimlab: helpers already loaded\n")
    else:
        import reclaimlab.loader
else:
    gdb.write("reclaimlab: %s/reclaimlab/loader.py not found; set RL_GDB_DIR to reclaimlab's scripts/gdb\n" % _rl_dir)
end

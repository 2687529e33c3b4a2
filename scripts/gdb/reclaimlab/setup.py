# Setting gdb up for the lab's kernel: the kernel's own lx- helpers, the
# source path of the patched tree, and, in scripts/gdb.sh's start mode, no
# detach.
#
# Environment (set by scripts/gdb.sh; guessed from the kernel's path when
# gdb is started by hand): RL_TOP, RL_KSRC (patched source tree), RL_KOUT
# (kernel build folder with vmlinux-gdb.py), RL_GDB_MODE.
import os
import sys

import gdb

from reclaimlab import header_defines, utils
from reclaimlab.utils import note

# lx- helpers that do not work on this UML kernel, and why; shown by
# rl-help and in docs/gdb.md.  (Checked on 6.12 ARCH=um, FLATMEM, !SMP.)
LX_BROKEN_ON_UML = {
    "lx-symbols": "no modules (CONFIG_MODULES=n); it would try to reload 'vmlinux' "
    "from the current folder and can drop the kernel's symbols: disabled here",
    "lx-slabinfo / lx-slabtrace": "need CONFIG_SPARSEMEM_VMEMMAP (UML is FLATMEM)",
    "lx-pfn_to_page / lx-page_to_pfn / lx-virt_to_page / lx-virt_to_phys / "
    "lx-page_address / lx-page_to_phys / lx-pfn_to_kaddr / lx-sym_to_pfn":
    "x86_64/arm64 with SPARSEMEM_VMEMMAP only",
    "lx-vmallocinfo": "fails on an optimized-out value",
    "lx-interruptlist": "expects x86 irq_stat.__nmi_count, which UML lacks",
    "lx-stack_depot_lookup / lx-dump-page-owner": "no STACKDEPOT / PAGE_OWNER in this config",
    "lx-fdtdump / lx-clk-summary / lx-genpd-summary": "no device tree, clocks or power domains",
    "$lx_per_cpu(var)": "cannot find the current CPU on UML: give it, $lx_per_cpu(var, 0) "
    "(var unquoted), or use the variable itself (one CPU, !SMP)",
}

# the file that makes a source tree the lab's patched one
LAB_SOURCE = "mm/reclaim_wait.c"

_setup_done = False


def _guess_top(kernel_file):
    # <top>/build/kernel/<flavour>/linux
    d = os.path.dirname(os.path.abspath(kernel_file))
    top = os.path.dirname(os.path.dirname(os.path.dirname(d)))
    return top if os.path.isdir(os.path.join(top, "scripts", "gdb")) else None


def _load_lx(kout):
    if "linux.utils" in sys.modules:
        return "already loaded"
    script = os.path.join(kout, "vmlinux-gdb.py") if kout else None
    if not script or not os.path.exists(script):
        return "not found (%s): lx- commands are unavailable" % (script or "no kernel folder")
    try:
        gdb.execute("source " + script, to_string=True)
    except gdb.error as e:
        return "failed: %s" % e
    LxSymbolsOnUml()
    return "loaded from " + script


class LxSymbolsOnUml(gdb.Command):
    """lx-symbols is not needed on reclaimlab's UML kernel.

The kernel has no modules (CONFIG_MODULES=n) and its symbols come from the
kernel binary gdb runs; the original lx-symbols would reload 'vmlinux' from
the current folder and can leave gdb without symbols."""

    def __init__(self):
        super().__init__("lx-symbols", gdb.COMMAND_FILES)

    def invoke(self, arg, from_tty):
        note("lx-symbols: not needed here (no modules; symbols come from %s)"
             % gdb.current_progspace().filename)


def _set_source_path(ksrc):
    """Make 'list' show build/src/linux even if the tree moved after the build.

    The lab's build names source files relative to the object folder
    (ccache's base folder) and records that folder as /reclaimlab-build/...
    (-fdebug-prefix-map), so that any checkout compiles the same objects;
    older builds recorded absolute names.  Either way one substitute-path
    rule maps the recorded folder back to where the tree is now."""
    sym = utils.lookup_symbol("reclaim_wait_done")
    rel = LAB_SOURCE
    if sym is None:
        sym = utils.lookup_symbol("start_kernel")
        rel = "init/main.c"
    if sym is None or sym.symtab is None:
        return "no line information in the kernel"
    name = sym.symtab.filename
    # a relative name is resolved from the compilation folder, which
    # fullname() joins in front of it while the file is not found
    full = sym.symtab.fullname() if not name.startswith("/") else name
    compiled = os.path.normpath(full)
    if not compiled.endswith("/" + rel) or not compiled.startswith("/"):
        return "source names are not absolute (%s); not changed" % full
    root = compiled[: -len(rel) - 1]
    if not ksrc:
        ksrc = root
    if not os.path.exists(os.path.join(ksrc, rel)):
        return "source tree %s lacks %s: 'list' cannot show the code" % (ksrc, rel)
    if " " in ksrc or " " in root:
        return "source paths with spaces are not supported"
    # the recorded folder to map: the source root itself, or, for relative
    # names, the folder holding both it and the compilation folder, which
    # sits as far above the tree now as it did then
    old, new = root, ksrc
    if not name.startswith("/") and full.endswith("/" + name):
        comp_dir = full[: -len(name) - 1]
        base = os.path.commonpath([comp_dir, root])
        tail = os.path.relpath(root, base)
        if ksrc.endswith("/" + tail):
            old, new = base, ksrc[: -len(tail) - 1]
    if os.path.realpath(old) != os.path.realpath(new):
        gdb.execute("set substitute-path %s %s" % (old, new))
        how = "%s (built as %s)" % (ksrc, root)
    else:
        how = ksrc
    gdb.execute("directory %s" % ksrc, to_string=True)
    # file names as found (the tree's own paths), not as compiled
    gdb.execute("set filename-display absolute")
    return how


def _check_header_defines(ksrc):
    """Warn if the lab's tree defines a constant otherwise than the helpers
    assume where the kernel does not say (see header_defines)."""
    if ksrc and os.path.exists(os.path.join(ksrc, LAB_SOURCE)):
        for problem in header_defines.mismatches(ksrc):
            note("warning: " + problem)


def setup_kernel(progspace_file=None):
    """Once, when a kernel is loaded: lx- helpers and the source path."""
    global _setup_done
    if _setup_done:
        return
    if gdb.lookup_global_symbol("start_kernel") is None:
        return
    _setup_done = True
    kfile = progspace_file or gdb.current_progspace().filename or ""
    top = os.environ.get("RL_TOP") or _guess_top(kfile)
    # the lx- scripts built with this kernel: next to it, else RL_KOUT
    kout = os.path.dirname(os.path.abspath(kfile)) if kfile else None
    if not kout or not os.path.exists(os.path.join(kout, "vmlinux-gdb.py")):
        kout = os.environ.get("RL_KOUT") or kout
    ksrc = os.environ.get("RL_KSRC") or (os.path.join(top, "build", "src", "linux") if top else None)
    lx = _load_lx(kout)
    src = _set_source_path(ksrc)
    note("kernel %s" % kfile)
    note("lx- helpers %s" % lx)
    note("sources: %s" % src)
    note("lab commands: rl-break-reclaim-wait, rl-folio-flags, rl-bdi-works (rl-help)")
    _check_header_defines(ksrc)


def on_new_objfile(event):
    utils.forget_kernel()  # constants read from the previous objfile
    try:
        setup_kernel(event.new_objfile.filename)
    except gdb.error as e:
        note("setup failed: %s" % e)


class RlRefuseDetach(gdb.Command):
    """Refuse 'detach' from a kernel that gdb started (scripts/gdb.sh start mode).

gdb put that kernel in a process group of its own: detached, it would run on
outside its run folder's control (run.sh would report the run crashed and
could not stop it).  To let the guest finish, delete or disable the
breakpoints and continue.  Attach mode (scripts/gdb.sh --attach) detaches."""

    def __init__(self):
        super().__init__("rl-refuse-detach", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        raise gdb.GdbError("reclaimlab: this kernel was started by gdb, detaching would orphan it; "
                           "to let the guest finish: delete (or disable) the breakpoints, then continue")


def refuse_detach_in_start_mode():
    if os.environ.get("RL_GDB_MODE") == "start":
        RlRefuseDetach()
        gdb.execute("define hook-detach\nrl-refuse-detach\nend")


# Signals that end a UML kernel: its own abort (os_dump_core() sends its
# process group SIGTERM, then SIGABRT), or a real bug (SIGILL, SIGBUS,
# SIGFPE).  When the kernel stops on one, say where and what the kernel
# logged last: after "reboot: Power down" the console is already closed,
# so a panic there reaches only the log buffer (lx-dmesg reads it).
FATAL_SIGNALS = ("SIGTERM", "SIGABRT", "SIGILL", "SIGBUS", "SIGFPE")


def on_stop(event):
    if not isinstance(event, gdb.SignalEvent) or event.stop_signal not in FATAL_SIGNALS:
        return
    note("the kernel stopped on %s; its threads' backtraces and last log lines follow"
         % event.stop_signal)
    for cmd, tail in (("thread apply all bt 30", None), ("lx-dmesg", 40)):
        try:
            text = gdb.execute(cmd, to_string=True)
        except gdb.error as e:
            note("%s failed: %s" % (cmd, e))
            continue
        lines = text.splitlines()
        if tail:
            lines = lines[-tail:]
        gdb.write("[rl] %s:\n%s\n" % (cmd, "\n".join(lines)))

# reclaimlab's gdb helpers for the User-Mode Linux kernel of the lab.
#
# Loaded by scripts/gdb/reclaimlab.gdb (which scripts/gdb.sh gives to gdb).
# On the first objfile that is a kernel it loads the kernel's own lx-
# helpers (vmlinux-gdb.py next to the kernel binary) and points gdb's
# source path at the patched tree (build/src/linux), then adds:
#
#   rl-break-reclaim-wait [-start] [-trace] [-reason NAME[,NAME]]
#                         breakpoint(s) in the reclaim wait path that print
#                         reason, task, memcg and timeout of every wait
#   rl-folio-flags EXPR   a folio's (or page's) flags in words, and what
#                         else says where it is: order, counts, mapping,
#                         memcg
#   rl-bdi-works [EXPR]   the queued writeback works (struct
#                         wb_writeback_work) of one bdi/wb, or of all bdis
#   rl-help               this summary
#
# Environment (set by scripts/gdb.sh; guessed from the kernel's path when
# gdb is started by hand): RL_TOP, RL_KSRC (patched source tree), RL_KOUT
# (kernel build folder with vmlinux-gdb.py).
import os
import re
import time

import gdb

PREFIX = "[rl] "


def note(msg):
    gdb.write(PREFIX + msg + "\n")


# --------------------------------------------------------------------------
# Kernel setup: the lx- helpers and the source path
# --------------------------------------------------------------------------

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

_setup_done = False


def _guess_top(kernel_file):
    # <top>/build/kernel/<flavour>/linux
    d = os.path.dirname(os.path.abspath(kernel_file))
    top = os.path.dirname(os.path.dirname(os.path.dirname(d)))
    return top if os.path.isdir(os.path.join(top, "scripts", "gdb")) else None


def _lookup_function(name):
    sym = gdb.lookup_global_symbol(name)
    if sym is None:
        try:
            sym = gdb.lookup_static_symbol(name)
        except AttributeError:
            sym = None
    if sym is None:
        try:
            sym = gdb.lookup_symbol(name)[0]
        except gdb.error:
            sym = None
    return sym


def _load_lx(kout):
    import sys
    if "linux.utils" in sys.modules:
        return "already loaded"
    script = os.path.join(kout, "vmlinux-gdb.py") if kout else None
    if not script or not os.path.exists(script):
        return "not found (%s): lx- commands are unavailable" % (script or "no kernel folder")
    try:
        gdb.execute("source " + script, to_string=True)
    except gdb.error as e:
        return "failed: %s" % e
    _disable_lx_symbols()
    return "loaded from " + script


def _disable_lx_symbols():
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

    LxSymbolsOnUml()


def _set_source_path(ksrc):
    """Make 'list' show build/src/linux even if the tree moved after the build."""
    sym = _lookup_function("reclaim_wait_done")
    rel = "mm/reclaim_wait.c"
    if sym is None:
        sym = _lookup_function("start_kernel")
        rel = "init/main.c"
    if sym is None or sym.symtab is None:
        return "no line information in the kernel"
    compiled = sym.symtab.filename
    if not compiled.endswith("/" + rel) or not compiled.startswith("/"):
        return "source names are relative (%s); not changed" % compiled
    root = compiled[: -len(rel) - 1]
    if not ksrc:
        ksrc = root
    if not os.path.exists(os.path.join(ksrc, rel)):
        return "source tree %s lacks %s: 'list' cannot show the code" % (ksrc, rel)
    if " " in ksrc or " " in root:
        return "source paths with spaces are not supported"
    if os.path.realpath(root) != os.path.realpath(ksrc):
        gdb.execute("set substitute-path %s %s" % (root, ksrc))
        how = "%s (built as %s)" % (ksrc, root)
    else:
        how = ksrc
    gdb.execute("directory %s" % ksrc, to_string=True)
    return how


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


def _on_new_objfile(event):
    try:
        setup_kernel(event.new_objfile.filename)
    except gdb.error as e:
        note("setup failed: %s" % e)


# --------------------------------------------------------------------------
# Small helpers on kernel data
# --------------------------------------------------------------------------


def T(name):
    return gdb.lookup_type(name)


def enum_name(value, strip_prefix=""):
    s = str(value)
    if strip_prefix and s.startswith(strip_prefix):
        s = s[len(strip_prefix):]
    return s.lower() if strip_prefix else s


def has_field(gtype, name):
    """True if gtype has a member name, also inside anonymous unions/structs."""
    for f in gtype.strip_typedefs().fields():
        if f.name == name:
            return True
        if not f.name and f.type.strip_typedefs().code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            if has_field(f.type, name):
                return True
    return False


def _offset_of(gtype, field):
    for f in gtype.strip_typedefs().fields():
        if f.name == field:
            return f.bitpos // 8
        if not f.name and f.type.strip_typedefs().code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            inner = _offset_of(f.type, field)
            if inner is not None:
                return f.bitpos // 8 + inner
    return None


def offset_of(gtype, field):
    """offsetof(), also of members of anonymous unions/structs."""
    off = _offset_of(gtype, field)
    if off is None:
        raise gdb.GdbError("%s has no field %s" % (gtype, field))
    return off


def container_of(ptr, gtype, field):
    addr = int(ptr) - offset_of(gtype, field)
    return gdb.Value(addr).cast(gtype.pointer())


def list_entries(head, gtype, field, limit=100000):
    """Entries of a struct list_head list; head is a struct list_head value."""
    head_addr = int(head.address)
    node = head["next"]
    n = 0
    while int(node) != head_addr:
        if int(node) == 0:
            raise gdb.GdbError("corrupt list at 0x%x: NULL next" % head_addr)
        yield container_of(node, gtype, field)
        n += 1
        if n >= limit:
            raise gdb.GdbError("list at 0x%x: more than %d entries, giving up" % (head_addr, limit))
        node = node["next"]


def list_length(head, limit=100000):
    n = 0
    head_addr = int(head.address)
    node = head["next"]
    while int(node) != head_addr and int(node) != 0 and n < limit:
        n += 1
        node = node["next"]
    return n


def current_task():
    task_ptr = T("struct task_struct").pointer()
    if gdb.lookup_global_symbol("cpu_tasks") is not None:
        # UML keeps the current task of its one CPU here.
        return gdb.parse_and_eval("cpu_tasks[0].task").cast(task_ptr)
    return gdb.parse_and_eval("$lx_current()").address


def task_str(task):
    if int(task) == 0:
        return "?"
    return "%s/%d" % (task["comm"].string(), int(task["pid"]))


def kernfs_path(kn, limit=64):
    parts = []
    while int(kn) != 0 and limit > 0:
        name = kn["name"].string()
        if name:
            parts.append(name)
        kn = kn["parent"]
        limit -= 1
    return "/" + "/".join(reversed(parts))


def memcg_str(memcg):
    """'ino (/path)' of a struct mem_cgroup *, '0 (global)' for NULL."""
    if int(memcg) == 0:
        return "0 (global)"
    try:
        kn = memcg["css"]["cgroup"]["kn"]
        return "%d (%s)" % (int(kn["id"]), kernfs_path(kn))
    except gdb.error as e:
        return "0x%x (%s)" % (int(memcg), e)


def css_str(css):
    if int(css) == 0:
        return "-"
    kn = css["cgroup"]["kn"]
    return "%d (%s)" % (int(kn["id"]), kernfs_path(kn))


def hz():
    try:
        tick_nsec = int(gdb.parse_and_eval("tick_nsec"))
        if tick_nsec > 0:
            return int(round(1e9 / tick_nsec))
    except gdb.error:
        pass
    return None


def ktime_now():
    """ktime_get() as the stopped kernel would return it, or None.

    UML's clocksource counts time_travel_time (time-travel mode) or the
    host's CLOCK_MONOTONIC in units of TIMER_MULTIPLIER (256) ns."""
    try:
        mode = str(gdb.parse_and_eval("time_travel_mode"))
        if mode != "TT_MODE_OFF":
            ns = int(gdb.parse_and_eval("time_travel_time"))
        else:
            ns = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        cycles = ns // 256
        tkr = gdb.parse_and_eval("tk_core.timekeeper.tkr_mono")
        mask = int(tkr["mask"])
        delta = (cycles - int(tkr["cycle_last"])) & mask
        nsec = (delta * int(tkr["mult"]) + int(tkr["xtime_nsec"])) >> int(tkr["shift"])
        return int(tkr["base"]) + nsec
    except (gdb.error, ValueError, AttributeError):
        return None


def frame_var(frame, name):
    try:
        v = frame.read_var(name)
    except (ValueError, gdb.error):
        return None
    if v.is_optimized_out:
        return None
    return v


def caller_chain(frame, n=3):
    names = []
    f = frame.older()
    while f is not None and len(names) < n:
        names.append(f.name() or "??")
        f = f.older()
    return " <- ".join(names)


# --------------------------------------------------------------------------
# rl-break-reclaim-wait
# --------------------------------------------------------------------------

# enum reclaim_wait_reason -> the reason= names of mm_vmscan_reclaim_wait
WAIT_REASONS = {
    "RECLAIM_WAIT_THROTTLE_WRITEBACK": "writeback",
    "RECLAIM_WAIT_THROTTLE_ISOLATED": "isolated",
    "RECLAIM_WAIT_THROTTLE_NOPROGRESS": "noprogress",
    "RECLAIM_WAIT_THROTTLE_CONGESTED": "congested",
    "RECLAIM_WAIT_FOLIO_WRITEBACK": "wait_writeback",
    "RECLAIM_WAIT_MIGRATE_WRITEBACK": "migrate_writeback",
}



def wait_reason_name(value):
    """The mm_vmscan_reclaim_wait reason= name of an enum reclaim_wait_reason
    (or vmscan_throttle_state) value, also for reasons added later."""
    s = str(value)
    if s in WAIT_REASONS:
        return WAIT_REASONS[s]
    for prefix in ("RECLAIM_WAIT_THROTTLE_", "RECLAIM_WAIT_", "VMSCAN_THROTTLE_"):
        if s.startswith(prefix):
            return s[len(prefix):].lower()
    return s


def valid_reasons():
    try:
        return sorted(wait_reason_name(f.name) for f in T("enum reclaim_wait_reason").fields()
                      if not f.name.startswith("NR_"))
    except gdb.error:
        return sorted(WAIT_REASONS.values())


# Where a wait starts: the calls of these sleeping functions in these
# functions (or their inlined copies), where they also report to
# reclaim_wait_done().  Found in the machine code, so they hold when the
# source changed after the build and wherever the compiler inlined or
# duplicated the sleep.  A patch that adds a sleep elsewhere adds its
# function here.
SLEEPERS = ("schedule_timeout", "io_schedule_timeout", "folio_wait_writeback")
WAIT_FUNCTIONS = ("__reclaim_throttle", "reclaim_throttle_acct", "reclaim_wait",
                  "shrink_folio_list", "shrink_inactive_list", "migrate_folio_unmap")

def task_class(task, gfp):
    """reclaim_task_class() of mm/reclaim_wait.c, computed from memory."""
    PF_KSWAPD = 0x00020000
    try:
        if int(task["flags"]) & PF_KSWAPD:
            return "kswapd"
        if gfp is not None:
            bit = int(gdb.parse_and_eval("___GFP_WRITE_BIT"))
            if int(gfp) & (1 << bit):
                return "write"
        if int(task["nr_dirtied"]):
            return "recent_write"
        paused = int(task["dirty_paused_when"])
        h = hz()
        if paused and h:
            jiffies = int(gdb.parse_and_eval("jiffies"))
            if ((jiffies - (paused + h)) & 0xFFFFFFFFFFFFFFFF) >> 63:
                return "recent_write"
        return "clean"
    except gdb.error:
        return "?"


def fmt_timeout(jiffies):
    if jiffies is None:
        return "?"
    j = int(jiffies)
    if j == 0:
        return "none"
    h = hz()
    return "%d jiffies (%gms)" % (j, j * 1000.0 / h) if h else "%d jiffies" % j


def function_ranges(function):
    """(start, end) of the code of function and of each copy inlined elsewhere."""
    try:
        sals = gdb.decode_line(function)[1] or []
    except gdb.error:
        return []
    ranges = set()
    for sal in sals:
        block = gdb.block_for_pc(sal.pc)
        while block is not None:
            if block.function is not None and block.function.name == function:
                if block.end - block.start < 0x10000:
                    ranges.add((block.start, block.end))
                break
            block = block.superblock
    return sorted(ranges)


def calls_in(start, end):
    """(address, target) of each call between start and end.

    A UML kernel is built with -mcmodel=large, so calls are mostly
    'movabs $callee,%reg; call *%reg'; direct calls are matched too."""
    arch = gdb.selected_inferior().architecture()
    direct = re.compile(r"\bcall\S*\s+(0x[0-9a-f]+)")
    movabs = re.compile(r"\bmovabs\s+\$(0x[0-9a-f]+),%(\w+)")
    indirect = re.compile(r"\bcall\S*\s+\*%(\w+)")
    regs = {}
    calls = []
    for insn in arch.disassemble(start, end - 1):
        asm = insn["asm"]
        m = movabs.search(asm)
        if m:
            regs[m.group(2)] = int(m.group(1), 16)
            continue
        m = indirect.search(asm)
        if m and m.group(1) in regs:
            calls.append((insn["addr"], regs[m.group(1)]))
            continue
        m = direct.search(asm)
        if m:
            calls.append((insn["addr"], int(m.group(1), 16)))
    return calls


def function_address(name):
    sym = _lookup_function(name)
    try:
        return int(sym.value().address) if sym is not None else None
    except gdb.error:
        return None


def wait_start_sites():
    """[(address, function, sleeper)] of every call of a sleeper in the code
    of WAIT_FUNCTIONS that also calls reclaim_wait_done()."""
    done = function_address("reclaim_wait_done")
    sleepers = {}
    for name in SLEEPERS:
        addr = function_address(name)
        if addr is not None:
            sleepers[addr] = name
    sites = {}
    for function in WAIT_FUNCTIONS:
        for rng in function_ranges(function):
            calls = calls_in(*rng)
            if not any(target == done for _, target in calls):
                continue
            for addr, target in calls:
                if target in sleepers:
                    sites.setdefault(addr, (function, sleepers[target]))
    return [(addr, fn, callee) for addr, (fn, callee) in sorted(sites.items())]


class ReclaimWaitBreakpoint(gdb.Breakpoint):
    def __init__(self, spec, site, stop, reasons, counter):
        super().__init__(spec)
        self.site = site  # "done", or the sleeping function called here
        self.stop_here = stop
        self.reasons = reasons
        self.counter = counter  # shared by the breakpoints of one command
        self.last = None

    def wait_key(self, frame):
        """What identifies one wait: task, place and the ktime it started.

        gdb can report a breakpoint again for the same execution: when it
        steps over it to resume and one of UML's signals (SIGALRM, SIGIO)
        comes in, the handler runs and returns to the breakpoint.  Such
        repeats are recognised by the same key and ignored."""
        try:
            task = int(current_task())
        except gdb.error:
            task = 0
        start = frame_var(frame, "start")
        return (task, frame.pc(), int(start) if start is not None else None)

    def describe(self, frame):
        task = current_task()
        gfp = memcg = timeout = None
        start = None
        folio = None
        sc = frame_var(frame, "sc")
        if self.site == "done":
            reason = wait_reason_name(frame_var(frame, "reason"))
            gfp = frame_var(frame, "gfp_mask")
            memcg = frame_var(frame, "memcg")
            timeout = frame_var(frame, "timeout")
            start = frame_var(frame, "start")
        elif self.site == "folio_wait_writeback":
            # a wait for the writeback of one folio: no timeout
            reason = "migrate_writeback" if "migrate" in (frame.name() or "") else "wait_writeback"
            timeout = 0
            folio = frame_var(frame, "folio")
            if folio is None:
                folio = frame_var(frame, "src")
            if reason == "migrate_writeback":
                memcg = gdb.Value(0)
        else:
            r = frame_var(frame, "acct")
            if r is None:
                r = frame_var(frame, "reason")
            reason = wait_reason_name(r) if r is not None else "?"
            gfp = frame_var(frame, "gfp_mask")
            memcg = frame_var(frame, "memcg")
            timeout = frame_var(frame, "timeout")
        if sc is not None:
            if gfp is None:
                gfp = sc["gfp_mask"]
            if memcg is None:
                memcg = sc["target_mem_cgroup"]
        parts = ["reclaim wait %s:" % ("done" if self.site == "done" else "starts"),
                 "reason=%s" % reason,
                 "task=%s" % task_str(task),
                 "class=%s" % task_class(task, gfp),
                 "memcg=%s" % (memcg_str(memcg) if memcg is not None else "?"),
                 "timeout=%s" % fmt_timeout(timeout)]
        if start is not None:
            now = ktime_now()
            if now is not None:
                parts.append("slept=%dus" % max(0, (now - int(start)) // 1000))
        if folio is not None:
            parts.append("folio=0x%x" % int(folio))
        return " ".join(parts), reason

    def stop(self):
        frame = gdb.newest_frame()
        key = self.wait_key(frame)
        if key == self.last and key[2] is not None:
            return False
        self.last = key
        try:
            line, reason = self.describe(frame)
        except Exception as e:  # never let a decoding problem break the run
            line, reason = "reclaim wait: cannot decode: %s" % e, None
        if self.reasons and reason not in self.reasons:
            return False
        self.counter[0] += 1
        note("%s  [bp %d, wait #%d] in %s <- %s" % (line, self.number, self.counter[0], frame.name(),
                                                   caller_chain(frame)))
        return self.stop_here


class RlBreakReclaimWait(gdb.Command):
    """Break in the reclaim wait path and describe each wait.

Usage: rl-break-reclaim-wait [-start] [-trace] [-reason NAME[,NAME...]]

Without options: a breakpoint on reclaim_wait_done(), which every reclaim
sleep of the lab's series reports to once it is over (from __reclaim_throttle(),
shrink_folio_list() and migrate_folio_unmap()).  Each hit prints
  reason (as in the mm_vmscan_reclaim_wait trace event), task comm/pid, task
  class, memcg inode and path, timeout, and how long the task slept,
then stops.

  -start    break where the sleep begins instead: on each call of
            schedule_timeout(), io_schedule_timeout() or folio_wait_writeback()
            in __reclaim_throttle(), shrink_folio_list(), migrate_folio_unmap()
            and the other reclaim functions that report to reclaim_wait_done()
            (one breakpoint per call site, found in the machine code)
  -trace    print the line and continue: a log of every wait, no stop
  -reason   only these reasons (others pass silently): the reason= names
            of the trace event, e.g. writeback isolated noprogress congested
            wait_writeback migrate_writeback (as this kernel's enum has them)

The breakpoints are ordinary gdb breakpoints: 'info breakpoints', 'delete',
'disable', 'ignore N COUNT' and 'commands' work on them."""

    def __init__(self):
        super().__init__("rl-break-reclaim-wait", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        start = trace = False
        reasons = None
        valid = set(valid_reasons())
        while argv:
            a = argv.pop(0)
            if a == "-start":
                start = True
            elif a == "-trace":
                trace = True
            elif a == "-reason":
                if not argv:
                    raise gdb.GdbError("-reason needs a value (one of: %s)" % " ".join(sorted(valid)))
                reasons = set(argv.pop(0).split(","))
                bad = reasons - valid
                if bad:
                    raise gdb.GdbError("unknown reason %s (valid: %s)"
                                       % (",".join(sorted(bad)), " ".join(sorted(valid))))
            else:
                raise gdb.GdbError("unknown option '%s' (valid: -start -trace -reason)" % a)
        if _lookup_function("reclaim_wait_done") is None:
            raise gdb.GdbError("this kernel has no reclaim_wait_done(): not a reclaimlab kernel?")
        made = []
        counter = [0]
        if not start:
            bp = ReclaimWaitBreakpoint("reclaim_wait_done", "done", not trace, reasons, counter)
            made.append("%d (reclaim_wait_done)" % bp.number)
        else:
            sites = wait_start_sites()
            if not sites:
                note("no sleeping call found in the functions that call reclaim_wait_done()")
            for addr, function, callee in sites:
                bp = ReclaimWaitBreakpoint("*0x%x" % addr, callee, not trace, reasons, counter)
                made.append("%d (%s, before %s)" % (bp.number, function, callee))
        if not made:
            raise gdb.GdbError("no breakpoint set")
        note("reclaim wait breakpoint%s %s%s" % ("s" if len(made) > 1 else "", ", ".join(made),
                                                 ": print and continue" if trace else ""))


# --------------------------------------------------------------------------
# rl-folio-flags
# --------------------------------------------------------------------------


def pageflag_names():
    """({bit: primary name}, {bit: [aliases]}, NR_PAGEFLAGS) from enum pageflags."""
    e = T("enum pageflags")
    nr = None
    primary, aliases = {}, {}
    for f in e.fields():
        if f.name == "__NR_PAGEFLAGS":
            nr = f.enumval
    for f in e.fields():
        if f.name.startswith("__"):
            continue
        name = f.name[3:] if f.name.startswith("PG_") else f.name
        if f.enumval not in primary:
            primary[f.enumval] = name
        else:
            aliases.setdefault(f.enumval, []).append(name)
    return primary, aliases, nr


SECOND_PAGE_FLAGS = ("has_hwpoisoned", "large_rmappable", "partially_mapped")
# Aliases not worth showing next to a bit: free-page, pinning and Xen uses
# (and the second-page flags above, shown with the tail page).
HIDDEN_ALIASES = SECOND_PAGE_FLAGS + ("reported", "savepinned", "pinned", "foreign",
                                      "xen_remapped", "isolated", "vmemmap_self_hosted")


def to_folio(v):
    folio_t = T("struct folio")
    page_t = T("struct page")
    t = v.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_STRUCT:
        if v.address is None:
            raise gdb.GdbError("the value has no address")
        v = v.address
        t = v.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_PTR:
        target = t.target().strip_typedefs()
        if target.tag == "folio":
            return v.cast(folio_t.pointer()), None
        if target.tag != "page":
            raise gdb.GdbError("%s is not a folio or page pointer" % v.type)
        page = v.cast(page_t.pointer())
    elif t.code == gdb.TYPE_CODE_INT:
        page = v.cast(page_t.pointer())
    else:
        raise gdb.GdbError("cannot make a folio of a %s" % v.type)
    head = int(page["compound_head"])
    if head & 1:  # a tail page: its folio starts at the head page
        return gdb.Value(head - 1).cast(folio_t.pointer()), page
    return page.cast(folio_t.pointer()), None


def folio_mapping_str(folio):
    m = int(folio["mapping"])
    if m == 0:
        return "mapping=NULL"
    kind = m & 3
    if kind == 1:
        return "anon (anon_vma 0x%x)" % (m & ~3)
    if kind in (2, 3):
        return "movable/ksm (0x%x)" % m
    mapping = folio["mapping"]
    try:
        host = mapping["host"]
        sb = host["i_sb"]
        return "file ino %d on %s (%s), mapping 0x%x" % (
            int(host["i_ino"]), sb["s_id"].string(), sb["s_type"]["name"].string(), m)
    except gdb.error:
        return "mapping 0x%x" % m


def folio_memcg_str(folio):
    data = int(folio["memcg_data"])
    if data == 0:
        return "none"
    ptr = data & ~7
    try:
        if data & 2:  # MEMCG_DATA_KMEM: an obj_cgroup
            objcg = gdb.Value(ptr).cast(T("struct obj_cgroup").pointer())
            return "kmem, " + memcg_str(objcg["memcg"])
        return memcg_str(gdb.Value(ptr).cast(T("struct mem_cgroup").pointer()))
    except gdb.error as e:
        return "0x%x (%s)" % (data, e)


def folio_lines(folio, tail=None):
    primary, aliases, nr = pageflag_names()
    flags = int(folio["flags"])
    words = []
    for bit in sorted(primary):
        if nr is not None and bit >= nr:
            continue
        if flags & (1 << bit):
            w = primary[bit]
            extra = [a for a in aliases.get(bit, []) if a not in HIDDEN_ALIASES]
            if extra:
                w += "[" + ",".join(extra) + "]"
            words.append(w)
    mask = (1 << nr) - 1 if nr else 0
    out = ["folio 0x%x%s: flags=0x%x %s" % (
        int(folio), " (head of page 0x%x)" % int(tail) if tail is not None else "",
        flags, "|".join(words) or "(none)")]
    if nr and flags & ~mask:
        out.append("  field bits above the flags (section/node/zone): 0x%x" % (flags & ~mask))
    folio_t = T("struct folio")
    is_large = any(name == "head" and flags & (1 << b) for b, name in primary.items())
    if is_large and has_field(folio_t, "_flags_1"):
        f1 = int(folio["_flags_1"])
        order = f1 & 0xFF
        second = []
        for bit, names in aliases.items():
            for n in names:
                if n in SECOND_PAGE_FLAGS and f1 & (1 << bit):
                    second.append(n)
        out.append("  large folio: order %d (%d pages), first tail page flags: %s"
                   % (order, 1 << order, "|".join(sorted(second)) or "(none)"))
    refcount = int(folio["_refcount"]["counter"])
    if is_large and has_field(folio_t, "_large_mapcount"):
        mapcount = int(folio["_large_mapcount"]["counter"]) + 1
    else:
        mapcount = int(folio["_mapcount"]["counter"]) + 1
    out.append("  refcount=%d mapcount=%d index=%d %s" % (
        refcount, mapcount, int(folio["index"]), folio_mapping_str(folio)))
    if has_field(folio_t, "memcg_data"):
        out.append("  memcg=%s" % folio_memcg_str(folio))
    return out


class RlFolioFlags(gdb.Command):
    """Print a folio's flags in words, with its order, counts, mapping and memcg.

Usage: rl-folio-flags EXPR

EXPR is a struct folio * or struct page * (a tail page shows its folio), a
folio or page value, an address, or a struct list_head * of folios linked
by their lru (e.g. folio_list in shrink_folio_list(): the first 16 are
shown).  The names come from the kernel's own enum pageflags, so they
follow the kernel being debugged.  Bits with more than one name show the
others in brackets, e.g. reclaim[readahead] (PG_reclaim without writeback
is readahead's mark), owner_priv_1[checked,swapcache]; for a large folio the
flags of its first tail page (order, large_rmappable, ...) are shown too."""

    LIST_MAX = 16

    def __init__(self):
        super().__init__("rl-folio-flags", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError("usage: rl-folio-flags EXPR (a struct folio *, struct page * or "
                               "list_head * of folios)")
        v = gdb.parse_and_eval(arg)
        t = v.type.strip_typedefs()
        if t.code == gdb.TYPE_CODE_PTR and t.target().strip_typedefs().tag == "list_head":
            if int(v) == 0:
                raise gdb.GdbError("%s is NULL" % arg)
            folios = []
            total = 0
            for folio in list_entries(v.dereference(), T("struct folio"), "lru"):
                total += 1
                if len(folios) < self.LIST_MAX:
                    folios.append(folio)
            gdb.write("%d folio%s on the list%s\n" % (
                total, "" if total == 1 else "s",
                " (the first %d)" % self.LIST_MAX if total > self.LIST_MAX else ""))
            for folio in folios:
                gdb.write("\n".join(folio_lines(folio)) + "\n")
            return
        folio, tail = to_folio(v)
        if int(folio) == 0:
            raise gdb.GdbError("%s is NULL" % arg)
        gdb.write("\n".join(folio_lines(folio, tail)) + "\n")


# --------------------------------------------------------------------------
# rl-bdi-works
# --------------------------------------------------------------------------

WORK_KNOWN = ("nr_pages", "sb", "sync_mode", "tagged_writepages", "for_kupdate",
              "range_cyclic", "for_background", "for_sync", "auto_free", "reason",
              "list", "done")


def value_str(v):
    t = v.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_PTR:
        if int(v) == 0:
            return "NULL"
        target = t.target().strip_typedefs()
        try:
            if target.tag == "inode":
                return "%d on %s (0x%x)" % (int(v["i_ino"]), v["i_sb"]["s_id"].string(), int(v))
            if target.tag == "folio":
                return "folio 0x%x index %d" % (int(v), int(v["index"]))
            if target.tag == "super_block":
                return "%s (0x%x)" % (v["s_id"].string(), int(v))
        except gdb.error:
            pass
        return "0x%x" % int(v)
    if t.code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_BOOL, gdb.TYPE_CODE_ENUM, gdb.TYPE_CODE_CHAR):
        return str(v)
    s = str(v).replace("\n", " ")
    return s if len(s) < 120 else s[:117] + "..."


def work_str(work):
    t = work.dereference().type.strip_typedefs()
    w = work.dereference()
    parts = []
    names = [f.name for f in t.fields()]

    def get(name):
        return w[name] if name in names else None

    reason = get("reason")
    if reason is not None:
        parts.append("reason=%s" % enum_name(reason, "WB_REASON_"))
    if get("nr_pages") is not None:
        parts.append("nr_pages=%d" % int(w["nr_pages"]))
    if get("sync_mode") is not None:
        parts.append("sync=%s" % enum_name(w["sync_mode"], "WB_SYNC_"))
    bits = [n for n in ("tagged_writepages", "for_kupdate", "range_cyclic", "for_background",
                        "for_sync", "auto_free") if get(n) is not None and int(w[n])]
    if bits:
        parts.append("[" + ",".join(bits) + "]")
    if get("sb") is not None and int(w["sb"]):
        parts.append("sb=" + value_str(w["sb"]))
    if get("done") is not None and int(w["done"]):
        parts.append("waited-for")
    # A pageout work (WB_REASON_PAGEOUT) names the pages reclaim wants
    # written: nr_pages of inode from page offset.
    if get("inode") is not None and int(w["inode"]):
        parts.append("inode=" + value_str(w["inode"]))
    if get("offset") is not None:
        off = int(w["offset"])
        parts.append("offset=%d" % off)
        if get("nr_pages") is not None:
            parts.append("(pages %d-%d)" % (off, off + int(w["nr_pages"]) - 1))
    # Other fields of later patches, whatever they are called; skip
    # embedded structures (e.g. a work_struct).
    for n in names:
        if not n or n in WORK_KNOWN or n in ("inode", "offset"):
            continue
        if w[n].type.strip_typedefs().code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION,
                                               gdb.TYPE_CODE_ARRAY):
            continue
        parts.append("%s=%s" % (n, value_str(w[n])))
    return "work 0x%x: %s" % (int(work), " ".join(parts))


def wb_state_str(wb):
    state = int(wb["state"])
    try:
        names = [f.name[3:] for f in T("enum wb_state").fields() if state & (1 << f.enumval)]
    except gdb.error:
        names = []
    return "0x%x%s" % (state, (" " + "|".join(names)) if names else "")


def print_wb(wb, indent="  "):
    work_t = T("struct wb_writeback_work")
    css = ""
    if has_field(wb.dereference().type, "memcg_css"):
        css = " memcg=%s" % css_str(wb["memcg_css"])
    works = list(list_entries(wb["work_list"], work_t, "list"))
    lists = []
    for name in ("b_dirty", "b_io", "b_more_io", "b_dirty_time"):
        if has_field(wb.dereference().type, name):
            lists.append("%s=%d" % (name, list_length(wb[name])))
    gdb.write("%swb 0x%x%s state=%s inodes: %s; %d queued work%s\n" % (
        indent, int(wb), css, wb_state_str(wb), " ".join(lists), len(works),
        "" if len(works) == 1 else "s"))
    for work in works:
        gdb.write("%s  %s\n" % (indent, work_str(work)))
    return len(works)


def bdi_wbs(bdi):
    wb_t = T("struct bdi_writeback")
    if has_field(bdi.dereference().type, "wb_list"):
        wbs = list(list_entries(bdi["wb_list"], wb_t, "bdi_node"))
        if wbs:
            return wbs
    return [bdi["wb"].address]


def print_bdi(bdi):
    name = bdi["dev_name"].string() if has_field(bdi.dereference().type, "dev_name") else "?"
    gdb.write("bdi %s (0x%x)\n" % (name or "?", int(bdi)))
    return sum(print_wb(wb) for wb in bdi_wbs(bdi))


def all_bdis():
    bdi_t = T("struct backing_dev_info")
    return list(list_entries(gdb.parse_and_eval("bdi_list"), bdi_t, "bdi_list"))


class RlBdiWorks(gdb.Command):
    """Print the writeback works queued on a bdi's writebacks (wb->work_list).

Usage: rl-bdi-works [EXPR | NAME]

EXPR may be a struct bdi_writeback *, backing_dev_info *, super_block *,
inode * or address_space * (the bdi it writes to); NAME a bdi name such as
98:0.  Without an argument: every registered bdi.  For each wb (the root one
and, with cgroup writeback, one per memcg) it prints its memcg, state, the
number of inodes on b_dirty/b_io/b_more_io/b_dirty_time, then each queued
struct wb_writeback_work with reason, nr_pages, sync mode and flags, plus
any other field the work has (e.g. inode and offset of a pageout work)."""

    def __init__(self):
        super().__init__("rl-bdi-works", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        arg = arg.strip()
        if not arg:
            total = sum(print_bdi(b) for b in all_bdis())
            gdb.write("%d queued work%s in all\n" % (total, "" if total == 1 else "s"))
            return
        try:
            v = gdb.parse_and_eval(arg)
        except gdb.error:
            names = []
            for b in all_bdis():
                names.append(b["dev_name"].string())
                if names[-1] == arg:
                    print_bdi(b)
                    return
            raise gdb.GdbError("'%s' is neither an expression nor a bdi name (bdis: %s)"
                               % (arg, " ".join(names)))
        t = v.type.strip_typedefs()
        if t.code == gdb.TYPE_CODE_STRUCT and v.address is not None:
            v = v.address
            t = v.type.strip_typedefs()
        if t.code != gdb.TYPE_CODE_PTR:
            raise gdb.GdbError("need a pointer, got %s" % v.type)
        if int(v) == 0:
            raise gdb.GdbError("%s is NULL" % arg)
        tag = t.target().strip_typedefs().tag
        if tag == "bdi_writeback":
            print_wb(v, "")
        elif tag == "backing_dev_info":
            print_bdi(v)
        elif tag == "super_block":
            print_bdi(v["s_bdi"])
        elif tag == "inode":
            print_bdi(v["i_sb"]["s_bdi"])
        elif tag == "address_space":
            print_bdi(v["host"]["i_sb"]["s_bdi"])
        else:
            raise gdb.GdbError("%s: give a bdi_writeback, backing_dev_info, super_block, "
                               "inode or address_space pointer" % v.type)


# --------------------------------------------------------------------------


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


if os.environ.get("RL_GDB_MODE") == "start":
    RlRefuseDetach()
    gdb.execute("define hook-detach\nrl-refuse-detach\nend")

RlBreakReclaimWait()
RlFolioFlags()
RlBdiWorks()
RlHelp()
gdb.events.new_objfile.connect(_on_new_objfile)
try:
    setup_kernel()
except gdb.error as e:
    note("setup failed: %s" % e)

# rl-break-reclaim-wait: breakpoints in the reclaim wait path that describe
# each wait (reason, task, class, memcg, timeout, time slept).
import gdb

from reclaimlab import cgroups, kernel_constants, machine_code, tasks, timekeeping, utils
from reclaimlab.utils import frame_var, note

# The trace event whose reason= names the command uses.
TRACE_EVENT = "mm_vmscan_reclaim_wait"

# Where a wait starts: the calls of these sleeping functions in these
# functions (or their inlined copies), where they also report to
# reclaim_wait_done().  Found in the machine code, so they hold when the
# source changed after the build and wherever the compiler inlined or
# duplicated the sleep.  A patch that adds a sleep elsewhere adds its
# function here.
SLEEPERS = ("schedule_timeout", "io_schedule_timeout", "folio_wait_writeback")
WAIT_FUNCTIONS = ("__reclaim_throttle", "reclaim_throttle_acct", "reclaim_wait",
                  "shrink_folio_list", "shrink_inactive_list", "migrate_folio_unmap")

# For a kernel without the event: names made from the enumerators.
_ENUMERATOR_PREFIXES = ("RECLAIM_WAIT_THROTTLE_", "RECLAIM_WAIT_", "VMSCAN_THROTTLE_")


def _reason_from_enumerator(enumerator):
    for prefix in _ENUMERATOR_PREFIXES:
        if enumerator.startswith(prefix):
            return enumerator[len(prefix):].lower()
    return enumerator


def wait_reason_name(value):
    """The reason= name of an enum reclaim_wait_reason value, as the trace
    event prints it.  A vmscan_throttle_state has the same values (the
    series' enum starts with one reason per throttle state)."""
    names = kernel_constants.trace_symbols(TRACE_EVENT, "reason")
    try:
        if int(value) in names:
            return names[int(value)]
    except (gdb.error, TypeError):  # no value: optimized out
        pass
    return _reason_from_enumerator(str(value))


def reason_of(enumerator):
    """The reason= name of an enumerator, e.g. RECLAIM_WAIT_DIRTY: dirty."""
    names = kernel_constants.trace_symbols(TRACE_EVENT, "reason")
    value = kernel_constants.enum_value(enumerator)
    return names[value] if value in names else _reason_from_enumerator(enumerator)


@utils.per_kernel
def valid_reasons():
    """The reasons of the kernel's enum reclaim_wait_reason (the series'),
    else of enum vmscan_throttle_state (reclaim_throttle()'s)."""
    for enum in ("enum reclaim_wait_reason", "enum vmscan_throttle_state"):
        try:
            fields = utils.kernel_type(enum).fields()
        except gdb.error:
            continue
        return sorted(reason_of(f.name) for f in fields if not f.name.startswith("NR_"))
    return []


def wait_start_sites():
    """[(address, function, sleeper)] of every call of a sleeper in the code
    of WAIT_FUNCTIONS that also calls reclaim_wait_done()."""
    done = utils.function_address("reclaim_wait_done")
    sleepers = {}
    for name in SLEEPERS:
        addr = utils.function_address(name)
        if addr is not None:
            sleepers[addr] = name
    sites = {}
    for function in WAIT_FUNCTIONS:
        for rng in machine_code.function_ranges(function):
            calls = machine_code.calls_in(*rng)
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
            task = int(tasks.current_task())
        except gdb.error:
            task = 0
        start = frame_var(frame, "start")
        return (task, frame.pc(), int(start) if start is not None else None)

    def _folio_wait(self, frame):
        """reason, memcg and folio of a wait for one folio's writeback."""
        if "migrate" in (frame.name() or ""):
            reason = reason_of("RECLAIM_WAIT_MIGRATE_WRITEBACK")
            memcg = gdb.Value(0)  # migration reports no memcg
        else:
            reason = reason_of("RECLAIM_WAIT_FOLIO_WRITEBACK")
            memcg = None
        folio = frame_var(frame, "folio")
        if folio is None:
            folio = frame_var(frame, "src")
        return reason, memcg, folio

    def describe(self, frame):
        task = tasks.current_task()
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
            reason, memcg, folio = self._folio_wait(frame)
            timeout = 0  # no timeout
        else:
            # reclaim_throttle_acct()'s acct, else the throttle state
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
                 "task=%s" % tasks.task_str(task),
                 "class=%s" % tasks.task_class(task, gfp),
                 "memcg=%s" % (cgroups.memcg_str(memcg) if memcg is not None else "?"),
                 "timeout=%s" % timekeeping.fmt_timeout(timeout)]
        if start is not None:
            now = timekeeping.ktime_now()
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
                                                   utils.caller_chain(frame)))
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

    @staticmethod
    def _parse(arg):
        """(start, trace, reasons or None) from the command's arguments."""
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
        return start, trace, reasons

    def invoke(self, arg, from_tty):
        start, trace, reasons = self._parse(arg)
        if utils.lookup_symbol("reclaim_wait_done") is None:
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

# The kernel's clock as seen from gdb: HZ, ktime_get() of the stopped
# kernel, and timeouts in jiffies.
import time

import gdb


def hz():
    """HZ, from tick_nsec (NSEC_PER_SEC / HZ, rounded), or None."""
    try:
        tick_nsec = int(gdb.parse_and_eval("tick_nsec"))
        if tick_nsec > 0:
            return int(round(1e9 / tick_nsec))
    except gdb.error:
        pass
    return None


def _ns_per_cycle(clock):
    """UML's clocksource counts TIMER_MULTIPLIER ns per cycle; the macro is
    not in the debug info, but clocksource_register_hz() turned it into the
    clocksource's mult and shift (ns = cycles * mult >> shift)."""
    mult = int(clock["mult"])
    if mult == 0:
        return None  # not registered yet: the kernel has not booted
    return int(round(mult / float(1 << int(clock["shift"]))))


def ktime_now():
    """ktime_get() as the stopped kernel would return it, or None.

    UML's clocksource (timer_read()) counts time_travel_time in time-travel
    mode, else the host's CLOCK_MONOTONIC, in units of TIMER_MULTIPLIER ns."""
    try:
        tkr = gdb.parse_and_eval("tk_core.timekeeper.tkr_mono")
        ns_per_cycle = _ns_per_cycle(tkr["clock"].dereference())
        if not ns_per_cycle:
            return None
        mode = str(gdb.parse_and_eval("time_travel_mode"))
        if mode != "TT_MODE_OFF":
            ns = int(gdb.parse_and_eval("time_travel_time"))
        else:
            ns = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        cycles = ns // ns_per_cycle
        mask = int(tkr["mask"])
        delta = (cycles - int(tkr["cycle_last"])) & mask
        nsec = (delta * int(tkr["mult"]) + int(tkr["xtime_nsec"])) >> int(tkr["shift"])
        return int(tkr["base"]) + nsec
    except (gdb.error, ValueError, AttributeError):
        return None


def fmt_timeout(jiffies):
    if jiffies is None:
        return "?"
    j = int(jiffies)
    if j == 0:
        return "none"
    h = hz()
    return "%d jiffies (%gms)" % (j, j * 1000.0 / h) if h else "%d jiffies" % j

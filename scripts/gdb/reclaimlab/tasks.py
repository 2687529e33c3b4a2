# Tasks: the one UML is running, and the class reclaim gives a task.
import gdb

from reclaimlab import kernel_constants, utils


def current_task():
    task_ptr = utils.kernel_type("struct task_struct").pointer()
    if gdb.lookup_global_symbol("cpu_tasks") is not None:
        # UML keeps the current task of its one CPU here.
        return gdb.parse_and_eval("cpu_tasks[0].task").cast(task_ptr)
    return gdb.parse_and_eval("$lx_current()").address


def task_str(task):
    if int(task) == 0:
        return "?"
    return "%s/%d" % (task["comm"].string(), int(task["pid"]))


def _time_before(a, b):
    """time_before(a, b) of include/linux/jiffies.h on unsigned longs."""
    bits = kernel_constants.unsigned_long_bits()
    return ((a - b) & ((1 << bits) - 1)) >> (bits - 1) == 1


def _dirtied_recently(task):
    last = int(task["last_dirtied"])
    recent = kernel_constants.recent_dirty()
    if not last or recent is None:
        return False
    jiffies = int(gdb.parse_and_eval("jiffies"))
    return _time_before(jiffies, last + recent)


def task_class_name(enumerator):
    """The class= name of an enum reclaim_task_class enumerator, as the
    mm_vmscan_reclaim_wait trace event prints it."""
    names = kernel_constants.trace_symbols("mm_vmscan_reclaim_wait", "task_class")
    value = kernel_constants.enum_value(enumerator)
    if value in names:
        return names[value]
    return enumerator[len("RECLAIM_TASK_"):].lower()


def task_class(task, gfp):
    """reclaim_task_class() of mm/reclaim_wait.c, computed from memory."""
    try:
        if int(task["flags"]) & kernel_constants.pf_kswapd():
            enumerator = "RECLAIM_TASK_KSWAPD"
        elif gfp is not None and int(gfp) & kernel_constants.gfp_write():
            enumerator = "RECLAIM_TASK_WRITE"
        elif _dirtied_recently(task):
            enumerator = "RECLAIM_TASK_RECENT_WRITE"
        else:
            enumerator = "RECLAIM_TASK_CLEAN"
        return task_class_name(enumerator)
    except gdb.error:
        return "?"

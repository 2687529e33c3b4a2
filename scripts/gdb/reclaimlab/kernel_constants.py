# Flag and enum values read from the kernel being debugged, not written
# into the helpers: enumerators from the debug info, macros when the
# kernel has macro information (-g3), else from the kernel's code, else the
# literals of header_defines (checked against the headers).
import re

import gdb

from reclaimlab import header_defines, machine_code, timekeeping, utils


def enum_value(name):
    """An enumerator's value (or a macro's, with -g3), or None."""
    try:
        return int(gdb.parse_and_eval(name))
    except gdb.error:
        return None


def _required_enum_value(name):
    value = enum_value(name)
    if value is None:
        raise gdb.GdbError("this kernel has no %s" % name)
    return value


def _macro_or_literal(name):
    value = enum_value(name)  # a macro, if the debug info has macros
    return header_defines.literal(name) if value is None else value


@utils.per_kernel
def pf_kswapd():
    """PF_KSWAPD: current_is_kswapd(), inlined all over mm/, tests it."""
    value = enum_value("PF_KSWAPD")
    if value is None:
        try:
            value = machine_code.tested_bit("current_is_kswapd", "task_struct", "flags")
        except gdb.error:
            value = None
    literal = header_defines.literal("PF_KSWAPD")
    if value is None:
        return literal
    if value != literal:
        utils.note("PF_KSWAPD is 0x%x in this kernel, 0x%x in the helpers: using 0x%x"
                   % (value, literal, value))
    return value


@utils.per_kernel
def gfp_write():
    """__GFP_WRITE, from the bit enum of include/linux/gfp_types.h."""
    return 1 << _required_enum_value("___GFP_WRITE_BIT")


@utils.per_kernel
def page_mapping_anon():
    return _macro_or_literal("PAGE_MAPPING_ANON")


@utils.per_kernel
def page_mapping_movable():
    return _macro_or_literal("PAGE_MAPPING_MOVABLE")


@utils.per_kernel
def memcg_data_kmem():
    """MEMCG_DATA_KMEM of enum page_memcg_data_flags."""
    return _required_enum_value("MEMCG_DATA_KMEM")


@utils.per_kernel
def memcg_data_pointer_mask():
    """~OBJEXTS_FLAGS_MASK, what folio_memcg() masks folio->memcg_data with."""
    last = enum_value("__NR_OBJEXTS_FLAGS")
    if last is None:  # an older kernel, without enum objext_flags
        last = _required_enum_value("__NR_MEMCG_DATA_FLAGS")
    return ~(last - 1)


def recent_dirty():
    """RECENT_DIRTY of mm/reclaim_wait.c in jiffies, or None (HZ unknown)."""
    value = enum_value("RECENT_DIRTY")
    return value if value is not None else timekeeping.hz()


@utils.per_kernel
def unsigned_long_bits():
    return 8 * gdb.lookup_type("unsigned long").sizeof


# {KEY, "name"} pairs of __print_symbolic(REC->field, ...) in a print_fmt.
# KEY is an enumerator's name in the binary; once the kernel has booted,
# TRACE_DEFINE_ENUM has replaced it in place by its number.
_SYMBOLIC = re.compile(r"__print_symbolic\(REC->(\w+),((?:\s*\{[^{}]*\},?)*)\s*\)")
_PAIR = re.compile(r"\{\s*(\w+)\s*,\s*\"([^\"]*)\"\s*\}")


def _number_or_enumerator(key):
    if key[0].isdigit():
        return int(key, 16) if key[:2].lower() == "0x" else int(key)
    return enum_value(key)


@utils.per_kernel
def trace_symbols(event, field):
    """{value: name} of field in trace event's output (its print_fmt), as
    the kernel prints it; {} if the kernel has no such event."""
    sym = utils.lookup_symbol("print_fmt_" + event)
    if sym is None:
        return {}
    try:
        fmt = sym.value().string()
    except gdb.error:
        return {}
    table = {}
    for m in _SYMBOLIC.finditer(fmt):
        if m.group(1) != field:
            continue
        for key, name in _PAIR.findall(m.group(2)):
            value = _number_or_enumerator(key)
            if value is not None:
                table[value] = name
    return table

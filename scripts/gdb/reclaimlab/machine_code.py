# Reading the kernel's machine code: where a function's code is (also its
# inlined copies), which calls it makes, which flag bits it tests.  Found in
# the code, these hold where the compiler inlined or duplicated the source,
# and when the source changed after the build.
import re

import gdb

from reclaimlab import utils

# Larger "functions" are blocks that gdb got wrong; none of ours comes close.
MAX_FUNCTION_BYTES = 0x10000


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
                if block.end - block.start < MAX_FUNCTION_BYTES:
                    ranges.add((block.start, block.end))
                break
            block = block.superblock
    return sorted(ranges)


def _disassemble(start, end):
    arch = gdb.selected_inferior().architecture()
    return arch.disassemble(start, end - 1)


def calls_in(start, end):
    """(address, target) of each call between start and end.

    A UML kernel is built with -mcmodel=large, so calls are mostly
    'movabs $callee,%reg; call *%reg'; direct calls are matched too."""
    direct = re.compile(r"\bcall\S*\s+(0x[0-9a-f]+)")
    movabs = re.compile(r"\bmovabs\s+\$(0x[0-9a-f]+),%(\w+)")
    indirect = re.compile(r"\bcall\S*\s+\*%(\w+)")
    regs = {}
    calls = []
    for insn in _disassemble(start, end):
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


# 'testb $0x2,0x16(%rax)': the compiler tests a flag in the byte that holds it.
_TEST_MEMORY = re.compile(r"\btest[bwlq]?\s+\$(0x[0-9a-f]+|\d+),(-?0x[0-9a-f]+|-?\d+)?\(%\w+\)")
# how far past an inlined copy's block its test may sit (the block often
# ends at the load of the pointer, before the test of the field)
_TEST_SLACK = 24


def tested_bit(inline_function, struct_name, field):
    """The one-bit mask that every inlined copy of inline_function tests in
    struct_name.field, e.g. current_is_kswapd() and task_struct.flags give
    PF_KSWAPD; None unless all copies that test the field agree on one bit."""
    gtype = utils.kernel_type("struct " + struct_name)
    first = utils.offset_of(gtype, field)
    size = utils.field_size(gtype, field)
    masks = set()
    for start, end in function_ranges(inline_function):
        for insn in _disassemble(start, end + _TEST_SLACK):
            m = _TEST_MEMORY.search(insn["asm"])
            if not m:
                continue
            offset = int(m.group(2) or "0", 0)
            if first <= offset < first + size:
                masks.add(int(m.group(1), 0) << (8 * (offset - first)))
            break
    if len(masks) != 1:
        return None
    mask = masks.pop()
    return mask if mask and mask & (mask - 1) == 0 else None

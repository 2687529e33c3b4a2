# Small helpers on the kernel's symbols, types and lists.
import functools

import gdb

PREFIX = "[rl] "


def note(msg):
    gdb.write(PREFIX + msg + "\n")


_per_kernel_caches = []


def per_kernel(fn):
    """Cache what fn reads from the kernel's debug info or code until another
    objfile is loaded (forget_kernel)."""
    cached = functools.lru_cache(maxsize=None)(fn)
    _per_kernel_caches.append(cached)
    return cached


def forget_kernel():
    for cached in _per_kernel_caches:
        cached.cache_clear()


def lookup_symbol(name):
    """A global or file-static symbol (function or variable), or None."""
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


def function_address(name):
    sym = lookup_symbol(name)
    try:
        return int(sym.value().address) if sym is not None else None
    except gdb.error:
        return None


def kernel_type(name):
    return gdb.lookup_type(name)


def enum_name(value, strip_prefix=""):
    s = str(value)
    if strip_prefix and s.startswith(strip_prefix):
        s = s[len(strip_prefix):]
    return s.lower() if strip_prefix else s


def _is_anonymous_aggregate(field):
    return not field.name and field.type.strip_typedefs().code in (gdb.TYPE_CODE_STRUCT,
                                                                  gdb.TYPE_CODE_UNION)


def has_field(gtype, name):
    """True if gtype has a member name, also inside anonymous unions/structs."""
    for f in gtype.strip_typedefs().fields():
        if f.name == name:
            return True
        if _is_anonymous_aggregate(f) and has_field(f.type, name):
            return True
    return False


def _offset_of(gtype, field):
    for f in gtype.strip_typedefs().fields():
        if f.name == field:
            return f.bitpos // 8
        if _is_anonymous_aggregate(f):
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


def field_size(gtype, field):
    for f in gtype.strip_typedefs().fields():
        if f.name == field:
            return f.type.sizeof
    raise gdb.GdbError("%s has no field %s" % (gtype, field))


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

# rl-folio-flags: a folio's flags in words (names from the kernel's enum
# pageflags), with its order, counts, mapping and memcg.
import gdb

from reclaimlab import cgroups, kernel_constants, utils
from reclaimlab.utils import has_field, kernel_type


@utils.per_kernel
def pageflag_names():
    """({bit: primary name}, {bit: [aliases]}, NR_PAGEFLAGS) from enum pageflags."""
    e = kernel_type("enum pageflags")
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

# Literals of the kernel itself, which has no name for them: bit 0 of
# page->compound_head marks a tail page (_compound_head()), and the low
# byte of folio->_flags_1 is the order (folio_order()).
TAIL_PAGE_BIT = 1
FOLIO_ORDER_MASK = 0xFF


def to_folio(v):
    folio_t = kernel_type("struct folio")
    page_t = kernel_type("struct page")
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
    if head & TAIL_PAGE_BIT:  # a tail page: its folio starts at the head page
        return gdb.Value(head - TAIL_PAGE_BIT).cast(folio_t.pointer()), page
    return page.cast(folio_t.pointer()), None


def folio_mapping_str(folio):
    m = int(folio["mapping"])
    if m == 0:
        return "mapping=NULL"
    anon = kernel_constants.page_mapping_anon()
    movable = kernel_constants.page_mapping_movable()
    kind = m & (anon | movable)  # PAGE_MAPPING_FLAGS
    if kind == anon:
        return "anon (anon_vma 0x%x)" % (m & ~(anon | movable))
    if kind in (movable, anon | movable):  # PAGE_MAPPING_MOVABLE, PAGE_MAPPING_KSM
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
    ptr = data & kernel_constants.memcg_data_pointer_mask()
    try:
        if data & kernel_constants.memcg_data_kmem():  # an obj_cgroup
            objcg = gdb.Value(ptr).cast(kernel_type("struct obj_cgroup").pointer())
            return "kmem, " + cgroups.memcg_str(objcg["memcg"])
        return cgroups.memcg_str(gdb.Value(ptr).cast(kernel_type("struct mem_cgroup").pointer()))
    except gdb.error as e:
        return "0x%x (%s)" % (data, e)


def _flag_words(flags, primary, aliases, nr):
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
    return words


def _large_folio_line(folio, aliases):
    f1 = int(folio["_flags_1"])
    order = f1 & FOLIO_ORDER_MASK
    second = []
    for bit, names in aliases.items():
        for n in names:
            if n in SECOND_PAGE_FLAGS and f1 & (1 << bit):
                second.append(n)
    return ("  large folio: order %d (%d pages), first tail page flags: %s"
            % (order, 1 << order, "|".join(sorted(second)) or "(none)"))


def folio_lines(folio, tail=None):
    primary, aliases, nr = pageflag_names()
    flags = int(folio["flags"])
    words = _flag_words(flags, primary, aliases, nr)
    mask = (1 << nr) - 1 if nr else 0
    out = ["folio 0x%x%s: flags=0x%x %s" % (
        int(folio), " (head of page 0x%x)" % int(tail) if tail is not None else "",
        flags, "|".join(words) or "(none)")]
    if nr and flags & ~mask:
        out.append("  field bits above the flags (section/node/zone): 0x%x" % (flags & ~mask))
    folio_t = kernel_type("struct folio")
    is_large = any(name == "head" and flags & (1 << b) for b, name in primary.items())
    if is_large and has_field(folio_t, "_flags_1"):
        out.append(_large_folio_line(folio, aliases))
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

    def _print_list(self, head):
        folios = []
        total = 0
        for folio in utils.list_entries(head.dereference(), kernel_type("struct folio"), "lru"):
            total += 1
            if len(folios) < self.LIST_MAX:
                folios.append(folio)
        gdb.write("%d folio%s on the list%s\n" % (
            total, "" if total == 1 else "s",
            " (the first %d)" % self.LIST_MAX if total > self.LIST_MAX else ""))
        for folio in folios:
            gdb.write("\n".join(folio_lines(folio)) + "\n")

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError("usage: rl-folio-flags EXPR (a struct folio *, struct page * or "
                               "list_head * of folios)")
        v = gdb.parse_and_eval(arg)
        t = v.type.strip_typedefs()
        if t.code == gdb.TYPE_CODE_PTR and t.target().strip_typedefs().tag == "list_head":
            if int(v) == 0:
                raise gdb.GdbError("%s is NULL" % arg)
            self._print_list(v)
            return
        folio, tail = to_folio(v)
        if int(folio) == 0:
            raise gdb.GdbError("%s is NULL" % arg)
        gdb.write("\n".join(folio_lines(folio, tail)) + "\n")

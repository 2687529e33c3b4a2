# rl-bdi-works: the writebacks of a bdi (the root one and one per memcg),
# their inodes and the writeback works queued on them.
import gdb

from reclaimlab import cgroups
from reclaimlab.utils import enum_name, has_field, kernel_type, list_entries, list_length

# struct wb_writeback_work's fields that work_str() shows in its own way;
# any other (a later patch's) is shown as name=value.
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
        names = [f.name[3:] for f in kernel_type("enum wb_state").fields() if state & (1 << f.enumval)]
    except gdb.error:
        names = []
    return "0x%x%s" % (state, (" " + "|".join(names)) if names else "")


def print_wb(wb, indent="  "):
    work_t = kernel_type("struct wb_writeback_work")
    css = ""
    if has_field(wb.dereference().type, "memcg_css"):
        css = " memcg=%s" % cgroups.css_str(wb["memcg_css"])
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
    wb_t = kernel_type("struct bdi_writeback")
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
    bdi_t = kernel_type("struct backing_dev_info")
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


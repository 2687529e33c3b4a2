# The kernel #defines the helpers need.  gdb knows a macro only when the
# kernel was built with -g3 (the lab's is built with -g), so
# kernel_constants asks gdb first and falls back to these values, or to one
# it reads from the kernel's code.  The values are checked against the
# patched tree's headers, so a header change cannot slip by:
#
#   python3 scripts/gdb/reclaimlab/header_defines.py [KSRC]   the unit check
#
# and, in gdb, setup warns when a value differs from the source tree's.
# No gdb import here, so that the check runs in a plain python3.
import os
import re
import sys

# name: (file in the kernel tree, the value used when the kernel does not say)
LITERAL_DEFINES = {
    "PF_KSWAPD": ("include/linux/sched.h", 0x00020000),
    "PAGE_MAPPING_ANON": ("include/linux/page-flags.h", 0x1),
    "PAGE_MAPPING_MOVABLE": ("include/linux/page-flags.h", 0x2),
    # reclaim_task_class()'s "wrote recently", in jiffies
    "RECENT_DIRTY": ("mm/reclaim_wait.c", "HZ"),
}


def literal(name):
    return LITERAL_DEFINES[name][1]


def _parse_value(text):
    text = re.sub(r"/\*.*?\*/|//.*", "", text).strip()
    m = re.fullmatch(r"\(?\s*(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*\)?", text)
    return int(m.group(1), 0) if m else text


def read_define(ksrc, name):
    """The value of '#define name value' in the kernel tree ksrc (an int, or
    the text of a value that is not a plain number), or None."""
    path = os.path.join(ksrc, LITERAL_DEFINES[name][0])
    try:
        with open(path, errors="replace") as f:
            for line in f:
                m = re.match(r"\s*#\s*define\s+%s\s+(.+)" % re.escape(name), line)
                if m:
                    return _parse_value(m.group(1))
    except OSError:
        return None
    return None


def mismatches(ksrc):
    """'NAME: ...' for each literal that the tree ksrc defines otherwise."""
    found = []
    for name, (header, value) in LITERAL_DEFINES.items():
        current = read_define(ksrc, name)
        if current != value:
            found.append("%s: %s has %s, the gdb helpers %s" % (
                name, header, "no #define" if current is None else _show(current), _show(value)))
    return found


def _show(value):
    return "0x%x" % value if isinstance(value, int) else value


def main(argv):
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    ksrc = argv[1] if len(argv) > 1 else os.path.join(top, "build", "src", "linux")
    bad = mismatches(ksrc)
    for name in LITERAL_DEFINES:
        problem = [b for b in bad if b.startswith(name + ":")]
        print("not ok - %s" % problem[0] if problem else "ok - %s = %s in %s" % (
            name, _show(literal(name)), LITERAL_DEFINES[name][0]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

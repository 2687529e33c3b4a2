# Memory cgroups by the names people know them by: the inode number and
# path of the cgroup directory.
import gdb


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

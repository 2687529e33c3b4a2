# Loads reclaimlab's gdb helpers, as vmlinux-gdb.py loads the kernel's:
# scripts/gdb/reclaimlab.gdb imports this module once.
import gdb

from reclaimlab import setup
from reclaimlab.folios import RlFolioFlags
from reclaimlab.overview import RlHelp
from reclaimlab.reclaim_wait import RlBreakReclaimWait
from reclaimlab.writeback import RlBdiWorks

setup.refuse_detach_in_start_mode()
RlBreakReclaimWait()
RlFolioFlags()
RlBdiWorks()
RlHelp()
gdb.events.new_objfile.connect(setup.on_new_objfile)
gdb.events.stop.connect(setup.on_stop)
try:
    setup.setup_kernel()
except gdb.error as e:
    setup.note("setup failed: %s" % e)

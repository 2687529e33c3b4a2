# reclaimlab: a UML lab for page reclaim and writeback experiments.
#
#   make            dependencies, kernel, rootfs and disk images
#   make test       the test suite (what CI runs)
#   make compare    the main job: patched, vanilla and the modes the checks name, every filesystem
#   make run        an interactive shell in a guest with all four filesystems
#   make kernel / rootfs / images / guest-tools / host-tools / tools-check / clean
#
# KERNEL_FLAVOR=debug selects the lockdep/KASAN kernel (build/kernel/debug).
# RL_BUILD=DIR builds into DIR instead of build/ (the scripts read it too).

KERNEL_FLAVOR ?= normal
export KERNEL_FLAVOR
RL_BUILD ?= $(CURDIR)/build
export RL_BUILD
BUILD := $(RL_BUILD)
# the filesystems of scripts/catalogue.tsv, and swap
FILESYSTEMS := $(shell sed -n 's/^fs\t\([^\t]*\).*/\1/p' scripts/catalogue.tsv)
IMAGES := $(addprefix $(BUILD)/images/,$(addsuffix .img,$(FILESYSTEMS) swap))

all: kernel rootfs images guest-tools host-tools

# the main job's packages; the tests' and the other tools' too (deps-all)
deps:
	@scripts/deps.sh

deps-all:
	@scripts/deps.sh --all

kernel: deps
	@scripts/build-kernel.sh

rootfs: deps
	@scripts/build-kernel.sh --prepare-only
	@scripts/build-rootfs.sh

images: deps $(IMAGES)

$(BUILD)/images/%.img: scripts/make-images.sh scripts/catalogue.tsv
	@scripts/make-images.sh $*

# the read-only tools disk of every guest (fio, trace-cmd, sysstat, ...);
# the script rebuilds it only when its files changed
guest-tools: deps
	@scripts/build-guest-tools.sh

run: all
	@scripts/run.sh --interactive $(addprefix --disk ,$(FILESYSTEMS)) --swap

# the tools that read run folders on the host (scripts/tools)
host-tools:
	@$(MAKE) -s -C scripts/tools OUT=$(BUILD)/host-tools

tools-check:
	@$(MAKE) -s -C rootfs/tools check
	@$(MAKE) -s -C scripts/tools check

test: deps-all all
	@tests/run-tests.sh

# The main job: scenarios x filesystems x patched/vanilla, then the report.
# make compare ARGS="--scenario all --repeat 5"; make report RESULTS=dir
compare: all
	@scripts/compare.sh $(ARGS)

report:
	@test -n "$(RESULTS)" || { echo "usage: make report RESULTS=results/compare-..." >&2; exit 2; }
	@scripts/report.sh $(RESULTS)

gdb: deps-all all
	@scripts/gdb.sh $(ARGS)
.PHONY: gdb

clean:
	rm -rf $(BUILD)

.PHONY: all deps deps-all kernel rootfs images guest-tools host-tools run tools-check test compare report clean

# SPDX-License-Identifier: GPL-2.0
#
# Installing kstats (included by the top Makefile).  As root:
#   make install         the module for KDIR's kernel into
#                        /lib/modules/<release>/updates (then depmod), and
#                        the CLI, its man page, its bash completion and the
#                        plot script (kstats-plot) under PREFIX (default
#                        /usr/local); DESTDIR= stages
#   make uninstall       remove every file install wrote (same KDIR=, PREFIX=)
#   make dkms-install    the module sources into /usr/src/kstats-VERSION and
#                        'dkms install' for every kernel with headers; DKMS
#                        rebuilds it on kernel upgrades
#   make dkms-uninstall  'dkms remove' from every kernel, and the sources
#   make dkms-src        the DKMS source tree alone (DESTDIR=: debian/rules)
#   make deb             the Debian packages kstats-dkms and kstats (debian/)
#                        into deb-out/, built from a copy of the sources,
#                        then lintian
#   make deb-test        install them into throwaway copies of clean Debian
#                        12 and 13 roots (scripts/deps.sh), check (tests/deb);
#                        the DKMS tree's build cross for the arm64 kernels
#   make deb-arm64       the packages for arm64 (dpkg-buildpackage -aarm64),
#                        into deb-out/arm64

VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
# The release KDIR belongs to: the name of its /lib/modules directory when
# it has one (the headers of Debian's 6.1 say 6.1.x in kernel.release).
KRELEASE ?= $(or $(patsubst /lib/modules/%/build,%,$(filter /lib/modules/%/build,$(KDIR:/=))),\
	$(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null))
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
# bash-completion loads completions/kstats from each $XDG_DATA_DIRS
# (/usr/local/share:/usr/share) on first use of the command
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# the plot script and its modules; kstats-plot in BINDIR links to it
DATADIR ?= $(PREFIX)/share/kstats
INSTALL_MOD_DIR ?= updates
MODDIR = $(DESTDIR)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)
DKMS_SRC ?= $(DESTDIR)/usr/src/kstats-$(VERSION)
# Distribution headers carry no signing key: install unsigned (DKMS signs
# with the machine's MOK key, docs/install.md).
NOSIGN = $(if $(wildcard $(KDIR)/certs/signing_key.pem),,CONFIG_MODULE_SIG_ALL=)

install: install-module install-tools

install-module: module
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod KERNELRELEASE=$(KRELEASE) \
		INSTALL_MOD_PATH=$(DESTDIR) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) $(NOSIGN) modules_install
	$(if $(DESTDIR),,depmod -a $(KRELEASE))

install-tools: tools
	install -D -m 755 tools/kstats $(DESTDIR)$(BINDIR)/kstats
	install -D -m 644 tools/cli/kstats.1 $(DESTDIR)$(MANDIR)/man1/kstats.1
	install -D -m 644 tools/cli/kstats.bash-completion $(DESTDIR)$(BASHCOMPDIR)/kstats
	install -D -m 755 -t $(DESTDIR)$(DATADIR) plots/kstats_plot.py
	install -m 644 $(filter-out plots/kstats_plot.py,$(wildcard plots/*.py)) $(DESTDIR)$(DATADIR)/
	ln -sf $(DATADIR)/kstats_plot.py $(DESTDIR)$(BINDIR)/kstats-plot
	install -D -m 644 plots/kstats-plot.1 $(DESTDIR)$(MANDIR)/man1/kstats-plot.1

uninstall:
	@test -n "$(KRELEASE)" || { echo "uninstall: which kernel? pass KDIR=" >&2; exit 1; }
	rm -f $(MODDIR)/kstats.ko $(MODDIR)/kstats.ko.xz $(MODDIR)/kstats.ko.gz $(MODDIR)/kstats.ko.zst
	$(if $(DESTDIR),,depmod -a $(KRELEASE))
	rm -f $(DESTDIR)$(BINDIR)/kstats $(DESTDIR)$(MANDIR)/man1/kstats.1
	rm -f $(DESTDIR)$(BASHCOMPDIR)/kstats
	rm -f $(DESTDIR)$(BINDIR)/kstats-plot $(DESTDIR)$(MANDIR)/man1/kstats-plot.1
	rm -rf $(DESTDIR)$(DATADIR)

# What DKMS builds from: dkms.conf, the kernel sources and the headers
# they include; no objects.
dkms-src:
	install -d $(DKMS_SRC)/kmod $(DKMS_SRC)/common $(DKMS_SRC)/include/kstats
	install -m 644 dkms.conf $(DKMS_SRC)/
	install -m 644 kmod/Kbuild kmod/Makefile $(filter-out %.mod.c,$(wildcard kmod/*.[chS])) $(DKMS_SRC)/kmod/
	install -m 644 $(wildcard common/*.c) $(DKMS_SRC)/common/
	install -m 644 $(wildcard include/kstats/*.h) $(DKMS_SRC)/include/kstats/
	$(if $(wildcard include/linux/*.h),install -D -m 644 -t $(DKMS_SRC)/include/linux $(wildcard include/linux/*.h))

dkms-install: dkms-src
	dkms add kstats/$(VERSION)
	for k in $$(ls /lib/modules); do \
		[ -d /lib/modules/$$k/build ] || continue; \
		dkms install kstats/$(VERSION) -k $$k || exit 1; \
	done

dkms-uninstall:
	-dkms remove kstats/$(VERSION) --all
	rm -rf $(DKMS_SRC)

# The packages are built in deb-out/src, a copy of what they need, so that
# the tree keeps no build products and the .debs do not land in its parent.
DEB_OUT ?= deb-out
deb: DEPS = deb
deb: deps-check
	rm -rf $(DEB_OUT) && mkdir -p $(DEB_OUT)/src
	tar cf - Makefile install.mk dkms.conf debian kmod common include tools plots | tar xf - -C $(DEB_OUT)/src
	cd $(DEB_OUT)/src && dpkg-buildpackage -us -uc -b
	lintian --fail-on error $(DEB_OUT)/*.changes

deb-test: DEPS = deb arm64
deb-test: deb
	DEB_OUT=$(abspath $(DEB_OUT)) tests/deb/run.sh
	tests/deb/dkms-arm64.sh

# The same packages for arm64, cross-built with dpkg-buildpackage -aarm64
# in the Debian 13 root (scripts/deb-arm64.sh), into deb-out/arm64.
deb-arm64: DEPS = deb arm64
deb-arm64: deps-check
	scripts/deb-arm64.sh

.PHONY: deb deb-test deb-arm64 install install-module install-tools uninstall dkms-src dkms-install dkms-uninstall

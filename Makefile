# dynac: `make` sets up and builds everything, `make test` runs every test,
# `make bench` measures. Choose the interpreter with PYTHON=... (3.11).
PYTHON ?= python3
CC ?= cc
BUILD := build
TS_PYTHON_VERSION := 0.23.6
GRAMMAR_DIR := $(BUILD)/grammar/tree-sitter-python-$(TS_PYTHON_VERSION)
ROOT := $(abspath .)

# What the chosen interpreter says about itself (deps first: it may need python3-dev).
PYINFO = $(shell $(PYTHON) scripts/pyinfo.py)
PY_INCLUDE = $(word 1,$(PYINFO))
EXT_SUFFIX = $(word 2,$(PYINFO))
PY_TAG = $(word 3,$(PYINFO))
PYBUILD = $(BUILD)/python-$(PY_TAG)

DYNAC_VERSION := 0.1.0
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Wno-unused-parameter
GEN_SRC := $(wildcard generator/*.c generator/*/*.c)
GEN_HDR := $(wildcard generator/*.h generator/*/*.h)
GEN_OBJ := $(patsubst generator/%.c,$(BUILD)/obj/%.o,$(GEN_SRC))
# The Python include dir baked in is only a default: `python3 -m dynac build`
# passes its own interpreter's.
GEN_DEFS = -DDYNAC_DEFAULT_TEMPLATES='"$(ROOT)/templates"' \
           -DDYNAC_DEFAULT_INCLUDE='"$(ROOT)/single_include"' \
           -DDYNAC_DEFAULT_PYTHON_INCLUDE='"$(PY_INCLUDE)"' \
           -DDYNAC_DEFAULT_EXT_SUFFIX='"$(EXT_SUFFIX)"'

.PHONY: all deps generator python-module single_include test bench fuzz sanitize stress sweep clean install FORCE
all: deps
	@$(MAKE) --no-print-directory generator python-module

deps: $(BUILD)/.deps-ok $(GRAMMAR_DIR)/src/parser.c
$(BUILD)/.deps-ok: scripts/install-deps.sh
	@mkdir -p $(BUILD)
	sh scripts/install-deps.sh
	@touch $@

# The grammar comes from the npm registry, compiled against Debian's libtree-sitter.
$(GRAMMAR_DIR)/src/parser.c: | $(BUILD)/.deps-ok
	@mkdir -p $(BUILD)/grammar
	cd $(BUILD)/grammar && npm pack --silent tree-sitter-python@$(TS_PYTHON_VERSION) >/dev/null
	cd $(BUILD)/grammar && rm -rf package $(notdir $(GRAMMAR_DIR)) && \
	  tar xzf tree-sitter-python-$(TS_PYTHON_VERSION).tgz && mv package $(notdir $(GRAMMAR_DIR))
	@touch $@

generator: $(BUILD)/bin/dynac
$(BUILD)/obj/%.o: generator/%.c $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(CFLAGS) $(WARN) $(GEN_DEFS) -c $< -o $@
$(BUILD)/obj/ts_parser.o: $(GRAMMAR_DIR)/src/parser.c
	@mkdir -p $(BUILD)/obj
	$(CC) -std=gnu11 -O2 -w -I$(GRAMMAR_DIR)/src -c $< -o $@
$(BUILD)/obj/ts_scanner.o: $(GRAMMAR_DIR)/src/parser.c
	$(CC) -std=gnu11 -O2 -w -I$(GRAMMAR_DIR)/src -c $(GRAMMAR_DIR)/src/scanner.c -o $@
$(BUILD)/bin/dynac: $(GEN_OBJ) $(BUILD)/obj/ts_parser.o $(BUILD)/obj/ts_scanner.o
	@mkdir -p $(BUILD)/bin
	$(CC) -o $@ $^ -ltree-sitter -lcjson -lmd -lm

# The runtime header users take, assembled from its parts in runtime/ with
# Begin/End banners (committed; make test checks it is current).
single_include:
	$(PYTHON) scripts/single_include.py

# The Python package: python/dynac/*.py (linked) + the runtime extension.
python-module: $(PYBUILD)/dynac/_runtime$(EXT_SUFFIX) $(PYBUILD)/dynac/_config.py
	@for f in python/dynac/*.py; do [ "$${f##*/}" = _config.py ] || ln -sf $(ROOT)/$$f $(PYBUILD)/dynac/; done
	@$(PYTHON) -m compileall -q $(ROOT)/$(PYBUILD)/dynac
	@$(PYTHON) scripts/install-pth.py $(ROOT)/$(PYBUILD)
$(PYBUILD)/dynac/_runtime$(EXT_SUFFIX): python/dynac/_runtime.c single_include/dynac.h
	@mkdir -p $(PYBUILD)/dynac
	$(CC) -std=gnu11 -O2 -g -fPIC -shared -fno-strict-aliasing $(WARN) -Werror \
	  -Isingle_include -I$(PY_INCLUDE) $< -o $@
$(PYBUILD)/dynac/_config.py: Makefile $(BUILD)/bin/dynac
	@mkdir -p $(PYBUILD)/dynac
	@printf '%s\n' '"""Paths baked in by make (generated)."""' \
	  'GENERATOR = "$(ROOT)/$(BUILD)/bin/dynac"' 'TEMPLATES = "$(ROOT)/templates"' \
	  'INCLUDE = "$(ROOT)/single_include"' 'PYTHON_INCLUDE = "$(PY_INCLUDE)"' \
	  'EXT_SUFFIX = "$(EXT_SUFFIX)"' 'VERSION = "$(DYNAC_VERSION)"' > $@

# Python suites run under every 3.11 interpreter here: $(PYTHON) and Debian's.
TEST_PYTHONS ?= $(PYTHON) $(wildcard /usr/bin/python3)
test: all
	@set -e; args=""; seen=""; for p in $(TEST_PYTHONS); do \
	  tag=$$($$p scripts/pyinfo.py | cut -d' ' -f3); \
	  case " $$seen " in *" $$tag "*) continue;; esac; seen="$$seen $$tag"; \
	  $(MAKE) --no-print-directory python-module PYTHON=$$p; \
	  args="$$args --python $$p build/python-$$tag"; done; \
	$(PYTHON) tests/run.py $$args

bench: all
	sh scripts/install-deps.sh bench
	PYTHONPATH=$(PYBUILD) $(PYTHON) tests/bench.py

# The differential fuzzer: random modules, eager vs compiled (tests/fuzz.py).
# Findings are kept in build/fuzz-findings/ to become regression tests.
FUZZ_SEED ?= 1
FUZZ_MODULES ?= 300
FUZZ_BUDGET ?= 1800
fuzz: all
	PYTHONPATH=$(PYBUILD) $(PYTHON) tests/fuzz.py --seed $(FUZZ_SEED) --modules $(FUZZ_MODULES) \
	  --budget $(FUZZ_BUDGET)

# The runtime and every generated module under AddressSanitizer and
# UndefinedBehaviorSanitizer (tests/sanitize.py says what runs). CPython is
# not built with them: their runtimes are preloaded; leaks are not checked
# (CPython keeps objects at exit).
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1
SANBUILD = $(BUILD)/sanitize-$(PY_TAG)
sanitize: all
	@mkdir -p $(SANBUILD)/dynac
	$(CC) -std=gnu11 -fPIC -shared -fno-strict-aliasing $(SAN_FLAGS) $(WARN) -Werror \
	  -Isingle_include -I$(PY_INCLUDE) python/dynac/_runtime.c -o $(SANBUILD)/dynac/_runtime$(EXT_SUFFIX)
	@for f in python/dynac/*.py; do [ "$${f##*/}" = _config.py ] || ln -sf $(ROOT)/$$f $(SANBUILD)/dynac/; done
	@cp $(PYBUILD)/dynac/_config.py $(SANBUILD)/dynac/
	CFLAGS="$(SAN_FLAGS)" PYTHONPATH=$(SANBUILD) PYTHONMALLOC=malloc \
	  LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(PYTHON) tests/sanitize.py $(SANITIZE_ONLY)

# The generator, built with the sanitizers, over mutated stdlib files
# (tests/stress.py): no signal, no hang, no internal error, no sanitizer report.
STRESS_SEED ?= 1
STRESS_MUTANTS ?= 200
$(BUILD)/asan/dynac: $(GEN_SRC) $(GEN_HDR) $(BUILD)/obj/ts_parser.o $(BUILD)/obj/ts_scanner.o
	@mkdir -p $(BUILD)/asan
	$(CC) -std=gnu11 $(SAN_FLAGS) $(WARN) $(GEN_DEFS) $(GEN_SRC) \
	  $(BUILD)/obj/ts_parser.o $(BUILD)/obj/ts_scanner.o -o $@ -ltree-sitter -lcjson -lmd -lm
stress: all $(BUILD)/asan/dynac
	DYNAC_GENERATOR=$(ROOT)/$(BUILD)/asan/dynac ASAN_OPTIONS=abort_on_error=1 \
	  PYTHONPATH=$(PYBUILD) $(PYTHON) tests/stress.py --seed $(STRESS_SEED) --mutants $(STRESS_MUTANTS)

# The generator over the whole stdlib: no crash, no hang, no C that fails to compile.
sweep: all
	PYTHONPATH=$(PYBUILD) $(PYTHON) tests/sweep.py

# ---- make install PREFIX=... --------------------------------------------------
# bin/dynac (defaults pointing into PREFIX), include/dynac.h, share/dynac/templates,
# lib/pkgconfig/dynac.pc (`pkg-config --cflags dynac`: dynac.h and Python.h of
# $(PYTHON)), and the dynac package with its runtime in PREFIX's site-packages.
PREFIX ?= /usr/local
DESTDIR ?=
IPREFIX = $(DESTDIR)$(PREFIX)
SITE_PACKAGES = $(shell $(PYTHON) -c "import sysconfig; print(sysconfig.get_path('purelib', 'posix_prefix', vars={'base': '$(PREFIX)', 'platbase': '$(PREFIX)'}))")
INSTALL_DEFS = -DDYNAC_DEFAULT_TEMPLATES='"$(PREFIX)/share/dynac/templates"' \
               -DDYNAC_DEFAULT_INCLUDE='"$(PREFIX)/include"' \
               -DDYNAC_DEFAULT_PYTHON_INCLUDE='"$(PY_INCLUDE)"' \
               -DDYNAC_DEFAULT_EXT_SUFFIX='"$(EXT_SUFFIX)"'
# The paths baked into the installed generator: rebuilt when they change (a
# second `make install PREFIX=...` must not install the first prefix's paths).
$(BUILD)/install/defs: FORCE
	@mkdir -p $(BUILD)/install
	@echo '$(INSTALL_DEFS)' | cmp -s - $@ || echo '$(INSTALL_DEFS)' > $@
FORCE:
$(BUILD)/install/dynac: $(filter-out $(BUILD)/obj/driver.o,$(GEN_OBJ)) generator/driver.c $(GEN_HDR) \
                        $(BUILD)/obj/ts_parser.o $(BUILD)/obj/ts_scanner.o \
                        $(BUILD)/install/defs
	@mkdir -p $(BUILD)/install
	$(CC) -std=gnu11 $(CFLAGS) $(WARN) $(INSTALL_DEFS) -c generator/driver.c -o $(BUILD)/install/driver.o
	$(CC) -o $@ $(filter %.o,$^) $(BUILD)/install/driver.o -ltree-sitter -lcjson -lmd -lm

install: all $(BUILD)/install/dynac
	install -d $(IPREFIX)/bin $(IPREFIX)/include $(IPREFIX)/share/dynac/templates \
	  $(IPREFIX)/lib/pkgconfig $(DESTDIR)$(SITE_PACKAGES)/dynac
	install -m 755 $(BUILD)/install/dynac $(IPREFIX)/bin/dynac
	install -m 644 single_include/dynac.h $(IPREFIX)/include/dynac.h
	install -m 644 templates/* $(IPREFIX)/share/dynac/templates/
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include' '' 'Name: dynac' \
	  'Description: ahead-of-time compiler of Python numeric code to C: runtime header' \
	  'Version: $(DYNAC_VERSION)' 'Cflags: -I$${includedir} -I$(PY_INCLUDE)' \
	  > $(IPREFIX)/lib/pkgconfig/dynac.pc
	install -m 644 python/dynac/*.py $(DESTDIR)$(SITE_PACKAGES)/dynac/
	install -m 755 $(PYBUILD)/dynac/_runtime$(EXT_SUFFIX) $(DESTDIR)$(SITE_PACKAGES)/dynac/
	printf '%s\n' '"""Paths baked in by make install (generated)."""' \
	  'GENERATOR = "$(PREFIX)/bin/dynac"' 'TEMPLATES = "$(PREFIX)/share/dynac/templates"' \
	  'INCLUDE = "$(PREFIX)/include"' 'PYTHON_INCLUDE = "$(PY_INCLUDE)"' \
	  'EXT_SUFFIX = "$(EXT_SUFFIX)"' 'VERSION = "$(DYNAC_VERSION)"' > $(DESTDIR)$(SITE_PACKAGES)/dynac/_config.py
	$(PYTHON) -m compileall -q -d $(SITE_PACKAGES)/dynac $(DESTDIR)$(SITE_PACKAGES)/dynac
	@echo "installed in $(IPREFIX); Python package in $(SITE_PACKAGES)"

clean:
	rm -rf $(BUILD)

# dynac.mk: `dynac build` as a code-generation step of another project's build.
#
#   DYNAC_SOURCES := pkg/kinematics.py pkg/pricing.py    # modules to compile
#   include dynac.mk                                      # from dynac's examples/codegen
#   all: $(DYNAC_MODULES)
#
# Each Python module gives one extension module, __dynac__/NAME__dynac<EXT>
# beside it, where `import dynac` finds it. It depends on its .py, on the
# generator and on the runtime header, so only changed modules are rebuilt,
# and modules build independently: `make -j` runs them in parallel. Set
# DYNAC (the generator) and PYTHON (the interpreter the modules are for) when
# they are not on PATH; DYNAC_FLAGS adds options (--profile FILE, --all).
PYTHON ?= python3
DYNAC ?= dynac
DYNAC_FLAGS ?=
DYNAC_EXT := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
DYNAC_BIN := $(shell command -v $(DYNAC))
DYNAC_HEADER := $(firstword $(wildcard $(dir $(DYNAC_BIN))../include/dynac.h \
                  $(dir $(DYNAC_BIN))../../single_include/dynac.h))
# pkg/kinematics.py -> pkg/__dynac__/kinematics__dynac.cpython-311-x86_64-linux-gnu.so
dynac_module = $(dir $(1))__dynac__/$(basename $(notdir $(1)))__dynac$(DYNAC_EXT)
DYNAC_MODULES := $(foreach s,$(DYNAC_SOURCES),$(call dynac_module,$(s)))

define dynac_rule
$(call dynac_module,$(1)): $(1) $(DYNAC_BIN) $(DYNAC_HEADER)
	$(DYNAC) build $(1) -o $(dir $(1))__dynac__ $(DYNAC_FLAGS)
endef
$(foreach s,$(DYNAC_SOURCES),$(eval $(call dynac_rule,$(s))))

dynac-clean:
	rm -rf $(sort $(foreach s,$(DYNAC_SOURCES),$(dir $(s))__dynac__))
.PHONY: dynac-clean

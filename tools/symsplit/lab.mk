# tools/symsplit: the binding simulator (issue 7).  Included by the top Makefile.
SYMSPLIT_DIR  := tools/symsplit
SYMSPLIT_LIB  := $(filter-out main.c fuzz.c,$(notdir $(wildcard $(SYMSPLIT_DIR)/*.c)))
SYMSPLIT_SRCS := $(addprefix $(SYMSPLIT_DIR)/,$(SYMSPLIT_LIB) main.c)
SYMSPLIT_HDRS := $(wildcard $(SYMSPLIT_DIR)/*.h)
SYMSPLIT_OUT  := $(B)/tools/symsplit
SYMSPLIT      := $(SYMSPLIT_OUT)/symsplit
SYMSPLIT_SAN  := $(SYMSPLIT_OUT)/symsplit-san
SYMSPLIT_FUZZ := $(SYMSPLIT_OUT)/symsplit-fuzz
SYMSPLIT_FIX  := $(SYMSPLIT_OUT)/fixtures/.done
SYMSPLIT_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Wno-sign-compare -Wno-unused-parameter \
                   -Werror=implicit-function-declaration
SYMSPLIT_CLANG := $(shell command -v clang 2>/dev/null)

.PHONY: symsplit symsplit-san symsplit-fuzz symsplit-sweep symsplit-bench
symsplit: $(SYMSPLIT)
symsplit-san: $(SYMSPLIT_SAN)
symsplit-fuzz: $(SYMSPLIT_FUZZ)
symsplit-sweep: $(SYMSPLIT)
	$(Q)$(SYMSPLIT_DIR)/sweep $(SYMSPLIT)
symsplit-bench: $(SYMSPLIT)
	$(Q)$(SYMSPLIT_DIR)/bench $(SYMSPLIT)

# -lcapstone: the disassembler (funcstate.c, calls.c); -lstdc++: its
# __cxa_demangle names C++ symbols (demangle.c)

$(SYMSPLIT): $(SYMSPLIT_SRCS) $(SYMSPLIT_HDRS)
	@mkdir -p $(@D)
	$(Q)$(CC) -O2 -g $(SYMSPLIT_CFLAGS) -o $@ $(SYMSPLIT_SRCS) -lelf -lcapstone -lstdc++

# The same program under AddressSanitizer + UndefinedBehaviorSanitizer; the
# tests run it over every input they have (a finding there is a test failure).
$(SYMSPLIT_SAN): $(SYMSPLIT_SRCS) $(SYMSPLIT_HDRS)
	@mkdir -p $(@D)
	$(Q)$(CC) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
	    $(SYMSPLIT_CFLAGS) -o $@ $(SYMSPLIT_SRCS) -lelf -lcapstone -lstdc++

# libFuzzer target (clang only): fuzz.c feeds bytes to the ELF parser.
$(SYMSPLIT_FUZZ): $(SYMSPLIT_DIR)/fuzz.c $(addprefix $(SYMSPLIT_DIR)/,$(SYMSPLIT_LIB)) $(SYMSPLIT_HDRS)
	@mkdir -p $(@D)
	$(Q)clang -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(SYMSPLIT_CFLAGS) \
	    -o $@ $(SYMSPLIT_DIR)/fuzz.c $(addprefix $(SYMSPLIT_DIR)/,$(SYMSPLIT_LIB)) -lelf -lcapstone -lstdc++

# Hand-made scenarios the tests check the model against (see mkfixtures).
$(SYMSPLIT_FIX): $(SYMSPLIT_DIR)/mkfixtures $(SYMSPLIT_DIR)/mkcorrupt $(wildcard $(SYMSPLIT_DIR)/fixtures/*.c)
	$(Q)CC="$(CC)" LDFLAG_FUSE="$(LDFLAG_FUSE)" $(SYMSPLIT_DIR)/mkfixtures $(SYMSPLIT_OUT)/fixtures
	@touch $@

HELP_LINES += "  make symsplit    build the binding simulator: $(SYMSPLIT) --help for its options"
HELP_LINES += "  make symsplit-sweep / symsplit-bench    symsplit over /usr/bin + /usr/sbin; timing vs libtree/ldd/nm"
# libclang-rt-dev: the sanitizer and libFuzzer runtimes (only recommended by
# clang on Debian 13, so not there by default).
DEPS_PACKAGES += libelf-dev libcapstone-dev binutils file clang libclang-rt-dev python3
# man-db: test/docs.bats renders docs/symsplit.1 with man -l (a Debian 13
# root made by mmdebstrap has no man).
DEPS_PACKAGES += man-db
TEST_PREREQS += $(SYMSPLIT) $(SYMSPLIT_SAN) $(SYMSPLIT_FIX)
ifneq ($(SYMSPLIT_CLANG),)
TEST_PREREQS += $(SYMSPLIT_FUZZ)
endif

# prof: one statically linked binary; `make check` runs every test.
# `make check SANITIZE=1` builds and runs the same suite under ASan+UBSan,
# `make check VALGRIND=1` under valgrind memcheck (the heaviest cases skipped).
# `make check AREAS="pprof cli"` runs only those areas of test/run.sh.

CC ?= cc
CFLAGS ?= -O2 -g
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

STD_FLAGS = -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -pthread
LIBS = -lprotobuf-nanopb -lz -lm

ifdef FUZZ
BUILD = build-fuzz
CC = clang
SAN_FLAGS = -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LINK_MODE =
else ifdef VALGRIND
BUILD = build-valgrind
SAN_FLAGS =
# At every start valgrind reads the debug information of each library
# prof loads: libc's and libm's, from libc6-dbg (which Debian's valgrind
# needs for the dynamic linker's), cost half of its start, which is most
# of what the suite costs under valgrind. prof and unit here load copies
# of libc and libm without the build ID and debug link that lead valgrind
# to that information: the same code, errors and leaks found the same,
# only frames inside libc named by its exported symbols. The dynamic
# linker stays the system's, with its debug information.
NODEBUG_LIBS = $(BUILD)/nodebug/libc.so.6 $(BUILD)/nodebug/libm.so.6
LINK_MODE = -Wl,-rpath,'$$ORIGIN/nodebug',--disable-new-dtags
else ifdef SANITIZE
BUILD = build-sanitize
# clang, as the fuzzers: gcc's UBSan misses NULL + 0, which the fuzzers
# found, so replaying their crashers here proves the fix only with clang.
CC = clang
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LINK_MODE =
else
BUILD = build
SAN_FLAGS =
LINK_MODE = -static
endif

ALL_CFLAGS = $(STD_FLAGS) $(CFLAGS) $(SAN_FLAGS) -MMD -MP

LIB_SRC = $(wildcard base/*.c io/*.c model/*.c render/*.c formats/*.c nanopb_gen/*.c)
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC = $(wildcard test/unit/*.c)
UNIT_OBJ = $(UNIT_SRC:%.c=$(BUILD)/%.o)

.PHONY: all check demo regen goldens install uninstall clean man-lint fuzz fuzz-targets bench cross-check

all: prof

ifdef SANITIZE
prof: $(BUILD)/prof
else
prof: $(BUILD)/prof
	cp $< $@
endif

# The command line's own files, linked into prof only.
CLI_OBJ = $(BUILD)/main.o

$(BUILD)/prof: $(CLI_OBJ) $(LIB_OBJ) | $(NODEBUG_LIBS)
	$(CC) $(ALL_CFLAGS) $(LINK_MODE) -o $@ $^ $(LIBS)

$(BUILD)/unit: $(UNIT_OBJ) $(LIB_OBJ) | $(NODEBUG_LIBS)
	$(CC) $(ALL_CFLAGS) $(if $(NODEBUG_LIBS),$(LINK_MODE)) -o $@ $^ $(LIBS)

$(BUILD)/nodebug/%:
	@mkdir -p $(dir $@)
	objcopy --remove-section=.note.gnu.build-id --remove-section=.gnu_debuglink "$$($(CC) -print-file-name=$*)" $@

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The flame pictures' script stays JavaScript in render/flame.js; this
# makes it a C string for render/flame.c ('?' escaped: C11 has trigraphs).
$(BUILD)/render/flame_js.h: render/flame.js
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@

$(BUILD)/render/flame.o: $(BUILD)/render/flame_js.h
$(BUILD)/render/flame.o: ALL_CFLAGS += -I$(BUILD)/render

# The report page's script and styles, built in the same way (render/html.c).
$(BUILD)/render/report_js.h: render/report.js
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/render/report_css.h: render/report.css
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/render/html.o: $(BUILD)/render/report_js.h $(BUILD)/render/report_css.h
$(BUILD)/render/html.o: ALL_CFLAGS += -I$(BUILD)/render

# Converts a bundled R profile to pprof and back, and shows it unchanged;
# draws it as the flame graph the README and the manual show.
demo: prof
	./prof --list-formats
	./prof -o demo.pb.gz testdata/rprof/boot-memory-gc-line.out
	./prof -o demo.out demo.pb.gz
	cmp demo.out testdata/rprof/boot-memory-gc-line.out && \
		echo "demo.pb.gz: the R profile as pprof; demo.out: back to Rprof, identical to the input"
	./prof -o docs/flamegraph.svg testdata/rprof/boot-memory-gc-line.out && \
		echo "docs/flamegraph.svg: the R profile as a flame graph; open it in a browser"
	./prof -o docs/report.html testdata/rprof/boot-memory-gc-line.out && \
		echo "docs/report.html: the R profile as a report page; open it in a browser"

ifdef VALGRIND
check: $(BUILD)/prof $(BUILD)/unit
	LIGHT=1 NO_BROWSER=1 PROF=test/valgrind.sh UNIT="test/valgrind.sh $(BUILD)/unit" VALGRIND_PROF=$(BUILD)/prof \
		BUILD=$(BUILD) sh test/run.sh $(AREAS)
else
check: $(BUILD)/prof $(BUILD)/unit
	$(if $(SANITIZE),NO_BROWSER=1 )BUILD=$(BUILD) sh test/run.sh $(AREAS)
endif

# Other projects' files in the shared corpus beside the clone (CI): the
# scripts run the binary and the unit driver, so both are built first.
SHARED ?= ../shared
cross-check: $(BUILD)/prof $(BUILD)/unit
	BUILD=$(BUILD) sh test/cross-check.sh $(SHARED)
	PROF=$(BUILD)/prof sh test/flamegraph-peers.sh $(SHARED)

# Times conversions beside gzip and go tool pprof; appends to bench/RESULTS.md.
bench: prof
	sh bench/run.sh

# libFuzzer targets (needs clang): one per reader, as the registry lists
# them (the fuzz build's own prof --list-formats, so a new reader needs no
# line here), and "any", which sniffs. The first pass builds that prof.
ifdef FUZZ
FUZZ_TARGETS = $(shell $(BUILD)/prof --list-formats 2> /dev/null | awk '$$2 ~ /^r/ { print $$1 }') any
endif

fuzz:
	$(MAKE) FUZZ=1 build-fuzz/prof
	$(MAKE) FUZZ=1 fuzz-targets

fuzz-targets: $(FUZZ_TARGETS:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: test/fuzz/fuzz.c $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -DFUZZ_FORMAT='"$*"' -o $@ $^ $(LIBS)

# Goldens made by real programs: needs R (r-base-core).
goldens: $(BUILD)/prof
	sh test/make-goldens.sh

man-lint:
	mandoc -Tlint -Wwarning man/prof.1

install: prof
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 prof $(DESTDIR)$(BINDIR)/prof
	install -m 644 man/prof.1 $(DESTDIR)$(MANDIR)/man1/prof.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/prof $(DESTDIR)$(MANDIR)/man1/prof.1

clean:
	rm -rf build build-sanitize build-fuzz build-valgrind prof demo.out demo.pb.gz

-include $(LIB_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

# Regenerates the committed nanopb code from our schema (needs Debian's nanopb).
regen:
	cd nanopb_gen && nanopb_generator.py -q profile.proto
	for f in nanopb_gen/profile.pb.c nanopb_gen/profile.pb.h; do \
		{ echo '/* Generated by nanopb from nanopb_gen/profile.proto with `make regen`: do not edit. */'; cat $$f; } > $$f.tmp && mv $$f.tmp $$f; \
	done

# prof: one statically linked binary; `make check` runs every test.
# `make check SANITIZE=1` builds and runs the same suite under ASan+UBSan.

CC ?= cc
CFLAGS ?= -O2 -g
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

STD_FLAGS = -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE
LIBS = -lz

ifdef SANITIZE
BUILD = build-sanitize
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LINK_MODE =
else
BUILD = build
SAN_FLAGS =
LINK_MODE = -static
endif

ALL_CFLAGS = $(STD_FLAGS) $(CFLAGS) $(SAN_FLAGS) -MMD -MP

LIB_SRC = $(wildcard io/*.c model/*.c formats/*.c)
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC = $(wildcard test/unit/*.c)
UNIT_OBJ = $(UNIT_SRC:%.c=$(BUILD)/%.o)

.PHONY: all check demo goldens install uninstall clean man-lint

all: prof

ifdef SANITIZE
prof: $(BUILD)/prof
else
prof: $(BUILD)/prof
	cp $< $@
endif

$(BUILD)/prof: $(BUILD)/main.o $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) $(LINK_MODE) -o $@ $^ $(LIBS)

$(BUILD)/unit: $(UNIT_OBJ) $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Converts a bundled R profile and shows that it comes back unchanged.
demo: prof
	./prof --list-formats
	./prof -o demo.out testdata/rprof/boot-memory-gc-line.out
	cmp demo.out testdata/rprof/boot-memory-gc-line.out && echo "demo.out: converted, identical to the input"

check: $(BUILD)/prof $(BUILD)/unit
	sh test/run.sh $(BUILD)

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
	rm -rf build build-sanitize prof demo.out

-include $(LIB_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(BUILD)/main.d

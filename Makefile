# Builds the C readers, the pipeline timer and the V8 host into build/.
CC ?= cc
CFLAGS ?= -O3 -Wall -Wextra -Werror
BUILD := build

all: $(BUILD)/wc-c $(BUILD)/wc-splice $(BUILD)/pipe-run $(BUILD)/compiler.txt host

$(BUILD)/wc-c: wc/wc.c | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $<

$(BUILD)/wc-splice: wc/splice.c | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $<

$(BUILD)/pipe-run: lib/pipe-run.c | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $<

host:
	$(MAKE) -C host BUILD=$(abspath $(BUILD))

$(BUILD):
	mkdir -p $@

# What built the C readers, for each run's context: read from here, since the machine
# that runs them (the Docker image) need not have a compiler.
$(BUILD)/compiler.txt: Makefile | $(BUILD)
	{ $(CC) --version | head -n 1; echo "$(CC) $(CFLAGS)"; } > $@

clean:
	rm -f $(BUILD)/wc-c $(BUILD)/wc-splice $(BUILD)/pipe-run $(BUILD)/compiler.txt
	$(MAKE) -C host clean BUILD=$(abspath $(BUILD))

.PHONY: all host clean

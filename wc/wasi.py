"""Runs a WASI command module (preview1) under wasmtime, from PyPI's wasmtime wheel (the
runtime is inside it, reached through its C API): python3 wc/wasi.py [--dev] MODULE [ARGS...].

MODULE is a .wasm, compiled by Cranelift as it loads, or a .cwasm that
`python3 wc/wasi.py --precompile IN.wasm OUT.cwasm` compiled ahead of time. The module gets
the process's stdin, stdout and stderr; with --dev, /dev as a preopened folder (the ladder
reads /dev/null); and, if it imports lab.cpu_ns, the process's CPU time in ns, which
wasmtime's WASI clock refuses (calls/wasi.c). The module's exit code is the process's.
The wheel is ./setup.sh's, in build/wasmtime-py (requirements.txt pins it).
LAB_WASM_PROFILER (perfmap, jitdump) turns on wasmtime's profiler support, as the lab's perf
profile pass does.
"""
import os
import sys
import time

# A closed stdin is put on /dev/null first, as Node, Bun and Deno do as they start: else the
# next file opened (the module itself) would become fd 0, and the module would count it.
try:
    os.fstat(0)
except OSError:
    os.open('/dev/null', os.O_RDONLY)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'wasmtime-py'))
from wasmtime import (Config, Engine, ExitTrap, Func, FuncType, Linker, Module, Store, Trap,  # noqa: E402
                      ValType, WasiConfig, WasmtimeError)

USAGE = 'usage: python3 wc/wasi.py [--dev] MODULE [ARGS...] | --precompile IN.wasm OUT.cwasm'


def precompile(engine, source, target):
    with open(target, 'wb') as out:
        out.write(Module.from_file(engine, source).serialize())


def run(engine, file, args, dev):
    store = Store(engine)
    wasi = WasiConfig()
    wasi.argv = [file, *args]
    wasi.inherit_stdin()
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    if dev:
        wasi.preopen_dir('/dev', '/dev')
    store.set_wasi(wasi)
    linker = Linker(engine)
    linker.define_wasi()
    cpu_ns = Func(store, FuncType([], [ValType.f64()]), lambda: float(time.process_time_ns()))
    linker.define(store, 'lab', 'cpu_ns', cpu_ns)
    module = Module.deserialize_file(engine, file) if file.endswith('.cwasm') else Module.from_file(engine, file)
    try:
        linker.instantiate(store, module).exports(store)['_start'](store)
    except ExitTrap as exit_trap:
        return exit_trap.code
    return 0


def main(argv):
    # LAB_WASM_PROFILER=perfmap: the module's compiled code named for perf (the lab's profile pass)
    config = Config()
    if os.environ.get('LAB_WASM_PROFILER'):
        config.profiler = os.environ['LAB_WASM_PROFILER']
    engine = Engine(config)
    if argv[:1] == ['--precompile']:
        if len(argv) != 3:
            print(USAGE, file=sys.stderr)
            return 2
        precompile(engine, argv[1], argv[2])
        return 0
    dev = argv[:1] == ['--dev']
    if dev:
        argv = argv[1:]
    if not argv:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        return run(engine, argv[0], argv[1:], dev)
    except OSError as error:
        print(f'{argv[0]}: {error.strerror}', file=sys.stderr)
        return 1
    except (Trap, WasmtimeError) as error:
        # a trap, or a module that does not load or link: its cause, not a traceback
        print(f'{argv[0]}: wasmtime: {str(error).strip().splitlines()[-1].strip()}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

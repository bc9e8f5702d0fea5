# op-trace-step.py: gdb's half of tests/bench/op-trace (gdb -batch -x).
#
# Connects to a guest's QEMU gdbstub, puts a hardware breakpoint on the
# kernel entry of one operation, creates the gate file the guest's
# fence-cost waits for, and single-steps the operation from the
# breakpoint until the CPU is back in user space.  QEMU's default
# single-step masks interrupts and timers, so every instruction counted is
# the operation's own.  Writes one "COUNT FUNCTION" line per kernel
# function (by the guest's /proc/kallsyms), first entered first, and a
# last "TOTAL" line.
#
# Environment: OP_TRACE_PORT, OP_TRACE_ENTRY (a kallsyms name),
# OP_TRACE_KALLSYMS, OP_TRACE_GATE, OP_TRACE_OUT.
import bisect
import os

import gdb

MAX_STEPS = 2000000  # an operation of the series is some 10^4


def load_kallsyms(path):
    syms = []
    with open(path) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            if kind in "tTwW":
                syms.append((int(addr, 16), name))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def main():
    env = os.environ
    addrs, names = load_kallsyms(env["OP_TRACE_KALLSYMS"])
    entry = [a for a, n in zip(addrs, names) if n == env["OP_TRACE_ENTRY"]]
    if len(entry) != 1:
        raise gdb.GdbError("op-trace: %d kallsyms entries named %s"
                           % (len(entry), env["OP_TRACE_ENTRY"]))
    gdb.execute("set pagination off")
    gdb.execute("set architecture i386:x86-64")
    gdb.execute("target remote 127.0.0.1:" + env["OP_TRACE_PORT"])
    gdb.execute("hbreak *0x%x" % entry[0])
    open(env["OP_TRACE_GATE"], "w").close()
    gdb.execute("continue")
    counts = {}
    steps = 0
    while True:
        pc = int(gdb.parse_and_eval("$pc")) & 0xffffffffffffffff
        if pc < 0xffff800000000000:  # back in user space
            break
        steps += 1
        if steps > MAX_STEPS:
            raise gdb.GdbError("op-trace: no return to user space in %d steps" % MAX_STEPS)
        name = names[bisect.bisect_right(addrs, pc) - 1]
        counts[name] = counts.get(name, 0) + 1
        gdb.execute("stepi", to_string=True)
    gdb.execute("delete")
    gdb.execute("detach")
    with open(env["OP_TRACE_OUT"], "w") as out:
        for name, count in counts.items():
            out.write("%d %s\n" % (count, name))
        out.write("%d TOTAL\n" % steps)


main()

"""Anki's backend run under a frozen clock that the script moves: libfaketime (Debian's faketime
package) reads the time from a file, rewritten whole for every move, so Anki believes whatever day
and second the script says. ANKI_TEST_MODE turns Anki's fuzz off."""
import os
import subprocess
import tempfile
import time

FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"


def set_clock(clock_file, seconds):
    """Moves the frozen clock to `seconds` (Unix time); a reader never sees half a time."""
    with open(clock_file + ".new", "w") as f:
        f.write("@" + time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds)))
    os.replace(clock_file + ".new", clock_file)


def freeze_clock(clock_file, seconds):
    """Stops the clock at `seconds` (in set_clock's frame) until the next move: what a script does
    meanwhile takes no time, so a run does the same whatever the machine's load (a running
    clock's milliseconds decide which learning card is due next, and from there everything)."""
    with open(clock_file + ".new", "w") as f:
        f.write(time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds)))
    os.replace(clock_file + ".new", clock_file)


def set_clock_exactly(clock_file, seconds):
    """Moves the frozen clock to exactly `seconds`: libfaketime reads the file's time in the
    process's time zone (set_clock's times are off by the zone's offset, the same for every
    move, which scripts that only keep their own time need not mind)."""
    with open(clock_file + ".new", "w") as f:
        f.write("@" + time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds)))
    os.replace(clock_file + ".new", clock_file)


def rerun_frozen(script, arguments, start, python, fuzz=False, **environment):
    """Runs `script` again with `python` under libfaketime, the clock at `start`; the child finds
    the clock file in MAEIL_CLOCK_FILE. Fuzz stays off unless `fuzz` (then the load balancer,
    which picks within fuzz's range, works too)."""
    # The clock's folder goes with the run: a suite makes thousands of them.
    with tempfile.TemporaryDirectory() as folder:
        clock_file = os.path.join(folder, "now")
        set_clock(clock_file, start)
        env = dict(os.environ, LD_PRELOAD=FAKETIME, FAKETIME_TIMESTAMP_FILE=clock_file, FAKETIME_NO_CACHE="1",
                   MAEIL_CLOCK_FILE=clock_file, **environment)
        if fuzz:
            env.pop("ANKI_TEST_MODE", None)
        else:
            env["ANKI_TEST_MODE"] = "1"
        subprocess.run([python, os.path.abspath(script), *arguments], env=env, check=True)

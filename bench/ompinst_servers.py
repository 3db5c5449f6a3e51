"""ompinst-clang's start-up servers of one bench run (docs/OMPCC.md, "The ompinst server").

ompcc runs ompinst-clang through a server by default, and a server outlives the command that
started it by OMPCC_SERVER_IDLE seconds. A bench run gives its servers a private directory, so that
it measures the servers it started itself and stops them when it ends, as the test suite does.
"""

import contextlib
import fcntl
import glob
import os
import signal
import time


def stop_servers(directory, timeout=10.0):
    """Asks every server in directory to end (SIGTERM to the pid in the lock it holds) and waits
    until they have removed their locks. A lock nobody holds is a killed server's: its pid may be
    another process's by now, so it is left alone (as `ompcc --ompcc-stop-servers` does, which
    an older toolkit given to --base-bin lacks)."""
    stopped = []
    for lock in glob.glob(os.path.join(directory, "*.lock")):
        try:
            with open(lock) as f:
                try:
                    fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
                    continue
                except BlockingIOError:
                    pass
                pid = int(f.read().strip() or 0)
            if pid > 0:
                os.kill(pid, signal.SIGTERM)
                stopped.append(lock)
        except (OSError, ValueError):
            pass
    deadline = time.monotonic() + timeout
    while any(os.path.exists(lock) for lock in stopped) and time.monotonic() < deadline:
        time.sleep(0.05)


@contextlib.contextmanager
def private_servers(work):
    """OMPCC_SERVER_DIR in work for the commands this process starts, and every server started
    there stopped at the end."""
    directory = os.path.join(work, "ompinst-servers")
    os.makedirs(directory, mode=0o700, exist_ok=True)
    previous = os.environ.get("OMPCC_SERVER_DIR")
    os.environ["OMPCC_SERVER_DIR"] = directory
    try:
        yield directory
    finally:
        stop_servers(directory)
        if previous is None:
            os.environ.pop("OMPCC_SERVER_DIR", None)
        else:
            os.environ["OMPCC_SERVER_DIR"] = previous

"""A scratch PostgreSQL cluster for the provider-API benchmark on PostgreSQL: the tests' own
tests/backend/support/postgres-cluster (initdb in a temporary directory, a free loopback port,
removed afterwards)."""
import contextlib
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "backend", "support", "postgres-cluster")


@contextlib.contextmanager
def scratch_cluster():
    """Yields the server's postgresql:// URL (database `cardhour`); the cluster goes afterwards."""
    work = tempfile.mkdtemp(prefix="cardhour-bench-pg-")
    state = os.path.join(work, "cluster.url")
    try:
        result = subprocess.run([SCRIPT, "start", state], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, timeout=180)
        if result.returncode == 77:
            raise RuntimeError("PostgreSQL is not installed (Debian: postgresql)")
        if result.returncode != 0:
            raise RuntimeError("the scratch PostgreSQL cluster did not start: " + result.stdout[-2000:])
        with open(state) as f:
            yield f.read().strip()
    finally:
        subprocess.run([SCRIPT, "stop", state], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        with contextlib.suppress(OSError):
            os.rmdir(work)

"""Benchmark 4: the provider's API under load (wrk), against its HTTP stack with constant bodies."""
import os
import re
import shutil
import subprocess
import tempfile

from common import Sim, launch_many, median, wide_catalog

UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def _ms(text):
    m = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    return float(m.group(1)) * UNITS[m.group(2)]


def wrk(url, connections, seconds, token=None):
    """One wrk run: requests/s, p50 and p99 latency in ms, and how many answers were not 2xx."""
    threads = min(2, connections)
    args = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency"]
    if token:
        args += ["-H", f"Authorization: Bearer {token}"]
    out = subprocess.run(args + [url], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=seconds + 60).stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    if not (rps and p50 and p99):
        raise RuntimeError("could not read wrk's output:\n" + out)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {"rps": float(rps.group(1)), "p50_ms": _ms(p50.group(1)), "p99_ms": _ms(p99.group(1)),
            "non_2xx": int(bad.group(1)) if bad else 0,
            "socket_errors": sum(int(x) for x in errors.groups()) if errors else 0}


def _medians(runs):
    """Each figure's median over several wrk runs (errors summed)."""
    out = {k: median([r[k] for r in runs]) for k in ("rps", "p50_ms", "p99_ms")}
    out["non_2xx"] = sum(r["non_2xx"] for r in runs)
    out["socket_errors"] = sum(r["socket_errors"] for r in runs)
    return out


def run(sim_exe, floor_exe, catalog_src, instances, seconds, connection_counts=(1, 16, 64), rounds=1,
        log=print, store=None):
    """store: a postgresql:// URL for --store (the same benchmark on PostgreSQL), or None: SQLite."""
    if not shutil.which("wrk"):
        raise RuntimeError("wrk is not installed (Debian: apt-get install wrk)")
    work = tempfile.mkdtemp(prefix="cardhour-bench-api-")
    catalog = wide_catalog(catalog_src, os.path.join(work, "catalog"))
    sim = Sim(sim_exe, os.path.join(work, "sim"), "inprocess", catalog_dir=catalog,
              extra_args=["--store", store] if store else ())
    floor = None
    rows = []
    try:
        token = sim.api.sign_up("api@example.com")
        launch_many(sim.api, instances)
        paths = ["/v1/instances", "/v1/me"]
        # The floor serves the very bytes the provider answers, so both move the same amount.
        bodies = []
        for path in paths:
            body_file = os.path.join(work, path.strip("/").replace("/", "_") + ".json")
            with open(body_file, "wb") as f:
                f.write(sim.api.raw(path))
            bodies.append(f"{path}={body_file}")
        floor = subprocess.Popen([floor_exe] + bodies, stdout=subprocess.PIPE, text=True)
        line = floor.stdout.readline()
        if not line.startswith("listening"):
            raise RuntimeError("the HTTP floor did not start")
        floor_port = int(line.strip().rsplit(":", 1)[1])
        for path in paths:
            size = os.path.getsize(os.path.join(work, path.strip("/").replace("/", "_") + ".json"))
            # A short warm-up of each, then per connection count floor and provider back to back.
            wrk(f"http://127.0.0.1:{floor_port}{path}", 16, 1)
            wrk(f"http://127.0.0.1:{sim.port}{path}", 16, 1, token)
            for c in connection_counts:
                # Floor and provider alternate `rounds` times; the medians compare them, so that
                # one burst of the machine's other load does not decide a ratio.
                fs, ps = [], []
                for _ in range(rounds):
                    fs.append(wrk(f"http://127.0.0.1:{floor_port}{path}", c, seconds))
                    ps.append(wrk(f"http://127.0.0.1:{sim.port}{path}", c, seconds, token))
                f, p = _medians(fs), _medians(ps)
                if p["non_2xx"] or p["socket_errors"] or f["non_2xx"] or f["socket_errors"]:
                    log(f"  warning: {path} c={c}: provider non-2xx {p['non_2xx']}, socket errors "
                        f"{p['socket_errors']}; floor {f['non_2xx']}, {f['socket_errors']}")
                rows.append({"path": path, "connections": c, "body_bytes": size, "provider": p, "floor": f,
                             "rounds": rounds, "ratios": [x["rps"] / y["rps"] for x, y in zip(ps, fs) if y["rps"]]})
                log(f"  GET {path} c={c}: provider {p['rps']:.0f} req/s p50 {p['p50_ms']:.2f} ms p99 "
                    f"{p['p99_ms']:.2f} ms; floor {f['rps']:.0f} req/s p50 {f['p50_ms']:.2f} ms (medians of "
                    f"{rounds}; ratios {', '.join(f'{r:.2f}' for r in rows[-1]['ratios'])})")
    finally:
        if floor and floor.poll() is None:
            floor.terminate()
            floor.wait(10)
        sim.stop()
        shutil.rmtree(work, ignore_errors=True)
    return rows

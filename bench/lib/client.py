"""Benchmarks 2 and 3: the client's start and the client under load."""
import os
import shutil
import subprocess
import tempfile
import threading
import time

from common import Sim, cpu_seconds, launch_many, proc_status, wide_catalog


def _isolated_env(work):
    """Offscreen, with the settings and data of a throw-away home, so that a user's real
    settings neither speed up nor slow down the measurement, nor get touched."""
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["HOME"] = work
    env["XDG_CONFIG_HOME"] = os.path.join(work, "config")
    env["XDG_DATA_HOME"] = os.path.join(work, "data")
    env["XDG_CACHE_HOME"] = os.path.join(work, "cache")
    env["XDG_RUNTIME_DIR"] = work
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    env.pop("CARDHOUR_PROVIDER_URL", None)
    return env


def _start_once(exe, env):
    """Exec to first paint (the probe's CLOCK_MONOTONIC line), in seconds, and RSS in MiB."""
    t0 = time.monotonic_ns()
    out = subprocess.run([exe], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         timeout=60).stdout
    for line in out.splitlines():
        if line.startswith("cardhour-bench painted_ns="):
            fields = dict(part.split("=") for part in line.split()[1:])
            return (int(fields["painted_ns"]) - t0) / 1e9, int(fields["rss_kib"]) / 1024.0
    raise RuntimeError(f"{exe} printed no first-paint line (is it built with the bench probe?): {out[-500:]!r}")


def startup(client_exe, floor_exe, runs, warmup=1, log=print):
    """Alternating floor and client starts; returns rows of (floor s, floor MiB, client s, client MiB)."""
    work = tempfile.mkdtemp(prefix="cardhour-bench-start-")
    env = _isolated_env(work)
    env["CARDHOUR_BENCH_STARTUP"] = "1"
    rows = []
    try:
        for i in range(warmup + runs):
            floor_s, floor_mib = _start_once(floor_exe, env)
            client_s, client_mib = _start_once(client_exe, env)
            if i >= warmup:
                rows.append({"floor_s": floor_s, "floor_rss_mib": floor_mib, "client_s": client_s,
                             "client_rss_mib": client_mib})
                log(f"  start {i - warmup + 1}/{runs}: floor {floor_s * 1000:.0f} ms, client {client_s * 1000:.0f} ms")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


def _read_lines(proc, lines, event, marker):
    for line in proc.stdout:
        lines.append(line)
        if line.startswith(marker):
            event.set()


def under_load(client_exe, floor_exe, sim_exe, catalog_src, instances, seconds, settle_s=5, interval_s=5,
               log=print):
    """The client logged in to an in-process sandbox with `instances` running (telemetry at 1 Hz
    for each), its instances view and one instance's chart open, for `seconds`; the floor
    window (idle) is measured over the same seconds. Returns a dict of CPU % and memory."""
    work = tempfile.mkdtemp(prefix="cardhour-bench-load-")
    env = _isolated_env(work)
    catalog = wide_catalog(catalog_src, os.path.join(work, "catalog"))
    sim = Sim(sim_exe, os.path.join(work, "sim"), "inprocess", catalog_dir=catalog)
    client = floor = None
    try:
        sim.api.sign_up("load@example.com")
        launch_many(sim.api, instances)
        login = os.path.join(work, "login")
        with open(login, "w") as f:
            f.write("load@example.com\nbench-password\n")
        os.chmod(login, 0o600)
        env["CARDHOUR_BENCH_LOGIN_FILE"] = login
        # Samples reach the client over its event stream: check that the provider sends them.
        # (The first sample comes with the first telemetry pass after the instance runs.)
        first = sim.api.call('GET', '/v1/instances')[0]['id']
        deadline = time.monotonic() + 10
        sample = sim.api.call("GET", f"/v1/instances/{first}/metrics")
        while not sample.get("samples") and time.monotonic() < deadline:
            time.sleep(0.5)
            sample = sim.api.call("GET", f"/v1/instances/{first}/metrics")
        if not sample.get("samples"):
            raise RuntimeError("the provider has no telemetry samples for in-process instances")
        client = subprocess.Popen([client_exe, "--provider", f"http://127.0.0.1:{sim.port}"], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        lines, shown = [], threading.Event()
        threading.Thread(target=_read_lines, args=(client, lines, shown, "cardhour-bench instances_shown="),
                         daemon=True).start()
        if not shown.wait(60):
            raise RuntimeError("the client did not log in and list instances within 60 s: " + "".join(lines)[-500:])
        floor_env = dict(env)
        floor_env.pop("CARDHOUR_BENCH_LOGIN_FILE", None)
        floor = subprocess.Popen([floor_exe], env=floor_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(settle_s)  # log-in, first lists and the chart's history load are not the steady state
        # CPU per interval, so that the window gives a median and a p95 and not one figure.
        client_pct, floor_pct = [], []
        c0, f0, t0 = cpu_seconds(client.pid), cpu_seconds(floor.pid), time.monotonic()
        start = t0
        while t0 - start < seconds - 0.5:
            time.sleep(min(interval_s, seconds - (t0 - start)))
            c1, f1, t1 = cpu_seconds(client.pid), cpu_seconds(floor.pid), time.monotonic()
            client_pct.append(100.0 * (c1 - c0) / (t1 - t0))
            floor_pct.append(100.0 * (f1 - f0) / (t1 - t0))
            c0, f0, t0 = c1, f1, t1
        if client.poll() is not None:
            raise RuntimeError("the client exited during the measurement")
        time.sleep(1.2)  # one more count line after the window
        received = [int(line.split("=")[1]) for line in lines if line.startswith("cardhour-bench metrics_received=")]
        if not received or received[-1] == 0:
            raise RuntimeError("the client received no metric samples: the load was not there")
        shown_line = next(line for line in lines if line.startswith("cardhour-bench instances_shown="))
        return {"instances": instances, "seconds": seconds, "interval_s": interval_s,
                "listed": int(shown_line.strip().split("=")[1]), "metrics_received": received[-1],
                "client_cpu_pct": client_pct, "floor_cpu_pct": floor_pct,
                "client_rss_mib": proc_status(client.pid, "VmRSS") / 1024.0,
                "client_hwm_mib": proc_status(client.pid, "VmHWM") / 1024.0,
                "floor_rss_mib": proc_status(floor.pid, "VmRSS") / 1024.0,
                "floor_hwm_mib": proc_status(floor.pid, "VmHWM") / 1024.0}
    finally:
        for p in (client, floor):
            if p and p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        sim.stop()
        shutil.rmtree(work, ignore_errors=True)

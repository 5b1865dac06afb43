"""Benchmark 8: many in-process instances at once (no containers): every one launched through the
API, running, and sampled by telemetry each second; the provider's memory and CPU per instance.
Floor: the same provider over the same seconds before any instance runs."""
import datetime
import os
import shutil
import tempfile
import time

from common import Sim, cpu_seconds, launch_many, proc_status, wide_catalog


def _iso(epoch_s):
    return datetime.datetime.fromtimestamp(epoch_s, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _window(pid, seconds):
    """CPU share of one core and RSS (KiB) of the process over `seconds`."""
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    cpu1, t1 = cpu_seconds(pid), time.monotonic()
    return 100.0 * (cpu1 - cpu0) / (t1 - t0), proc_status(pid, "VmRSS")


def run(sim_exe, catalog_src, count, seconds, log=print):
    work = tempfile.mkdtemp(prefix="cardhour-bench-density-inprocess-")
    catalog = wide_catalog(catalog_src, os.path.join(work, "catalog"))
    sim = Sim(sim_exe, os.path.join(work, "sim"), "inprocess", catalog_dir=catalog)
    result = {"count": count, "seconds": seconds}
    try:
        api = sim.api
        api.sign_up("density-inprocess@example.com", topup=100_000_000_000)
        pid = sim.proc.pid
        result["floor_cpu_pct"], result["floor_rss_kib"] = _window(pid, seconds)
        t0 = time.monotonic()
        listed = launch_many(api, count, timeout_s=300)
        result["launch_s"] = time.monotonic() - t0
        time.sleep(2)  # every instance sampled at least once before the window
        window_start = time.time()
        result["cpu_pct"], result["rss_kib"] = _window(pid, seconds)
        window_end = time.time()
        running = [i for i in api.call("GET", "/v1/instances") if i["state"] == "running"]
        result["running"] = len(running)
        # Telemetry each second: the samples every instance has from the window, against its seconds.
        per_instance = []
        for inst in listed:
            got = api.call("GET", f"/v1/instances/{inst['id']}/metrics?since={_iso(window_start)}")
            samples = [s for s in got.get("samples", []) if s.get("at", "") <= _iso(window_end)]
            per_instance.append(len(samples))
        result["samples_min"] = min(per_instance) if per_instance else 0
        result["samples_expected"] = int(window_end - window_start)
        result["reporting"] = sum(1 for n in per_instance if n >= result["samples_expected"] - 1)
        log(f"  {result['running']} of {count} running (launched in {result['launch_s']:.1f} s), "
            f"{result['reporting']} reporting each second (fewest samples {result['samples_min']} of "
            f"{result['samples_expected']}); provider {result['cpu_pct']:.1f} % CPU, "
            f"RSS {result['rss_kib'] / 1024:.1f} MiB (no instance: {result['floor_cpu_pct']:.1f} %, "
            f"{result['floor_rss_kib'] / 1024:.1f} MiB)")
    finally:
        sim.stop()
        shutil.rmtree(work, ignore_errors=True)
    return result

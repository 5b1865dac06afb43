"""docs/benchmarks.md and docs/benchmarks.csv from bench/run's results."""
import csv
import os

import launch_to_ssh
import prompt
from common import median, percentile

FIELDS = ["benchmark", "measure", "unit", "cardhour_median", "cardhour_p95", "floor", "floor_median", "floor_p95",
          "ratio", "samples", "goal", "note"]


def _row(benchmark, measure, unit, values, floor, floor_values, goal="", note="", ratio=None):
    values = [v for v in values if v is not None]
    floor_values = [v for v in floor_values if v is not None]
    m, fm = median(values), median(floor_values) if floor_values else float("nan")
    if ratio is None:
        ratio = m / fm if floor_values and fm else float("nan")
    return {"benchmark": benchmark, "measure": measure, "unit": unit, "cardhour_median": m,
            "cardhour_p95": percentile(values, 95), "floor": floor, "floor_median": fm,
            "floor_p95": percentile(floor_values, 95) if floor_values else float("nan"), "ratio": ratio,
            "samples": len(values), "goal": goal, "note": note}


def _failed(benchmark, error):
    return {"benchmark": benchmark, "measure": "FAILED", "unit": "", "note": error}


def _api_rows(rows, api, section):
    if isinstance(api, dict):
        rows.append(_failed(section, api["error"]))
        return
    for r in api or []:
        p, f = r["provider"], r["floor"]
        label = f"GET {r['path']}, {r['connections']} connection(s)"
        note = f"{r['body_bytes']} B body" + (f"; ratio per round {', '.join(f'{x:.2f}' for x in r['ratios'])}"
                                             if r.get("ratios") else "")
        if p["socket_errors"] or p["non_2xx"]:
            note += f"; provider: {p['socket_errors']} socket errors (wrk times out at 2 s), {p['non_2xx']} non-2xx"
        rows.append(_row(section, label + ": requests/s", "req/s", [p["rps"]],
                         "same HTTP stack, constant body", [f["rps"]], note=note))
        rows.append(_row(section, label + ": p50 latency", "ms", [p["p50_ms"]],
                         "same HTTP stack, constant body", [f["p50_ms"]]))
        rows.append(_row(section, label + ": p99 latency", "ms", [p["p99_ms"]],
                         "same HTTP stack, constant body", [f["p99_ms"]]))


def rows_of(results):
    rows = []
    plan = results["plan"]
    launch = results.get("launch")
    if isinstance(launch, dict):
        rows.append(_failed("1 launch to SSH", launch["error"]))
    elif launch:
        floor = [r["floor_to_ssh_s"] for r in launch]
        rows.append(_row("1 launch to SSH", "POST /v1/instances → first command over SSH", "s",
                         [r["cardhour_to_ssh_s"] for r in launch], "bare podman run → first command over SSH",
                         floor, "≤ 0.45 s median, ≤ 2× floor"))
        rows.append(_row("1 launch to SSH", "POST /v1/instances → API says running", "s",
                         [r["cardhour_to_running_s"] for r in launch], "bare podman run → first command over SSH",
                         floor))
        desktop = [r for r in launch if "desktop_to_ssh_s" in r]
        if desktop:
            rows.append(_row("1 launch to SSH", "POST /v1/instances → first command over the desktop's SSH "
                             "(core's SshConnection: libssh, host key pinned, one exec)", "s",
                             [r["desktop_to_ssh_s"] for r in desktop],
                             "bare podman run → first command over the same SSH path",
                             [r["floor_desktop_to_ssh_s"] for r in desktop], "≤ 0.45 s median",
                             note="launches of their own, alternating with the OpenSSH ones; the program is "
                                  "started before the POST, as the desktop is open when a host becomes ready"))
    rows += _prompt_rows(results)
    start = results.get("start")
    if isinstance(start, dict):
        rows.append(_failed("2 client start", start["error"]))
    elif start:
        rows.append(_row("2 client start", "exec → main window painted, interactive", "ms",
                         [r["client_s"] * 1000 for r in start], "minimal Qt Widgets window",
                         [r["floor_s"] * 1000 for r in start], "≤ 1.5× floor"))
        rows.append(_row("2 client start", "RSS at first paint", "MiB", [r["client_rss_mib"] for r in start],
                         "minimal Qt Widgets window", [r["floor_rss_mib"] for r in start]))
    load = results.get("load")
    if load and "error" in load:
        rows.append(_failed("3 client under load", load["error"]))
    elif load:
        what = f"{load['instances']} instances at 1 Hz, {load['seconds']} s"
        rows.append(_row("3 client under load", f"CPU, % of one core ({what}; per {load['interval_s']} s)", "%",
                         load["client_cpu_pct"], "minimal Qt window, idle, same seconds", load["floor_cpu_pct"],
                         "< 10 %"))
        rows.append(_row("3 client under load", f"peak RSS (VmHWM) ({what})", "MiB", [load["client_hwm_mib"]],
                         "minimal Qt window, idle, same seconds", [load["floor_hwm_mib"]], "< 150 MB",
                         note=f"RSS at the end {load['client_rss_mib']:.1f} MiB; the client listed "
                              f"{load['listed']} instances and received {load['metrics_received']} samples"))
    for key, section in (("api", "4 provider API"), ("api-pg", "4b provider API, store on PostgreSQL")):
        _api_rows(rows, results.get(key), section)

    tick = results.get("tick")
    if isinstance(tick, dict):
        rows.append(_failed("5 metering + telemetry tick", tick["error"]))
    elif tick:
        base = tick[0]
        for r in tick:
            scale = r["instances"] / base["instances"]
            linear = base["total"]["median_us"] * scale / 1000
            row = _row("5 metering + telemetry tick", f"billing + telemetry tick, {r['instances']} instances", "ms",
                       [r["total"]["median_us"] / 1000], f"{base['instances']}-instance tick × {scale:g} (linear)",
                       [linear], "", note=f"billing {r['billing']['median_us'] / 1000:.1f} ms + telemetry "
                                          f"{r['telemetry']['median_us'] / 1000:.1f} ms; slowest telemetry pass "
                                          f"{r['telemetry'].get('max_us', 0) / 1000:.0f} ms (the ticks cross a minute "
                                          f"boundary, where minute averages are stored); the once-a-minute checkpoint-posting tick "
                                          f"{r['posting_tick_us'] / 1000:.0f} ms"
                                          + (f"; CPU time (load-independent): billing "
                                             f"{r['billing_cpu']['median_us'] / 1000:.1f} ms + telemetry "
                                             f"{r['telemetry_cpu']['median_us'] / 1000:.1f} ms per tick, "
                                             f"posting tick {r['posting_tick_cpu_us'] / 1000:.0f} ms"
                                             if "billing_cpu" in r else ""))
            row["cardhour_p95"] = r["total"]["p95_us"] / 1000
            row["samples"] = r["ticks"]
            rows.append(row)
    fan = results.get("fanout")
    if fan and "error" in fan:
        rows.append(_failed("7 event fan-out", fan["error"]))
    elif fan:
        what = f"{fan['streams']} streams over {fan['accounts']} accounts, {fan['instances']} instances at 1 Hz"
        rows.append(_row("7 event fan-out", f"provider CPU, % of one core ({what})", "%", [fan["provider_cpu_pct"]],
                         "same provider and instances, no stream open", [fan["floor_cpu_pct"]],
                         note=f"RSS {fan['provider_rss_mib']:.0f} MiB; the reader (Python, same machine) "
                              f"{fan['reader_cpu_pct']:.0f} % CPU"))
        rows.append(_row("7 event fan-out", "metrics events received / sent, slowest stream", "×",
                         [fan["received_ratio_min"]], "", [], "every stream keeps up (≈ 1)",
                         note=f"{fan['events_received']} of {fan['events_expected']:.0f} over {fan['seconds']:.0f} s, "
                              f"{fan['streams_fed']} streams fed; {fan['closed']} closed, {fan['cut_off']} cut off"))
        first, second = fan["lag_first_half_ms"], fan["lag_second_half_ms"]
        rows.append(_row("7 event fan-out", "lag, sample time → arrival, second half of the window: p99", "ms",
                         [second["p99"]], "first half of the window", [first["p99"]], "no growing queue (≈ 1×)",
                         note=f"p50 {first['p50']:.0f} → {second['p50']:.0f} ms; max {second['max']:.0f} ms; "
                              "samples are taken on whole seconds, so the lag includes the sampling pass"))
    dens = results.get("density")
    if dens and "error" in dens:
        rows.append(_failed("6 density", dens["error"]))
    elif dens and not dens.get("running"):
        # Nothing ran: no memory or CPU per instance to report, only why.
        rows.append(_failed("6 density", f"no instance ran (stopped by: {dens['stopped_by']})"))
    elif dens:
        tel, mem, floor = dens["telemetry"], dens["memory"], dens["floor"]
        rows.append(_row("6 density", f"base instances at once, every one answering SSH and reporting telemetry "
                                      f"each second (stopped by: {dens['stopped_by']})", "instances",
                         [min(dens["ssh_reachable"], tel["reporting"])], "", [], goal="≥ 1000",
                         note=f"{dens['running']} running, launched through the API {dens['parallel']} at a time in "
                              f"{dens['launch_s']:.0f} s; {dens['ssh_reachable']} answered SSH in one pass of "
                              f"{dens['ssh_pass_s']:.0f} s; {tel['reporting']} with a sample for each second of "
                              f"{tel['seconds']} s (fewest {tel['samples_min']} of {tel['samples_expected']})"))
        outside = ", ".join(f"{n} {v:.2f}" for n, v in mem["outside_by_process_mib"].items())
        floor_outside = ", ".join(f"{n} {v:.2f}" for n, v in floor["outside_by_process_mib"].items())
        rows.append(_row("6 density", f"memory per instance, whole: cgroup + the engine's processes for it (PSS), "
                                      f"{mem['count']} instances", "MiB", [mem["whole_mib"]],
                         f"bare container of the same image, whole ({floor['count']} at once)",
                         [floor["whole_mib"]], goal="≤ 1.2× floor",
                         note=f"cgroup {mem['inside_mib']:.2f} + outside {mem['outside_mib']:.2f} ({outside}); "
                              f"floor: cgroup {floor['inside_mib']:.2f} + outside {floor['outside_mib']:.2f} "
                              f"({floor_outside}); port forwarding by slirp4netns itself (the provider's "
                              f"network for podman boxes); kernel memory of the loop-mounted /workspace not counted"))
        rows.append(_row("6 density", f"provider CPU, % of one core ({dens['running']} instances, "
                                      f"{tel['seconds']} s)", "%", [tel["provider_cpu_pct"]], "", [],
                         note=f"plus {tel['podman_cpu_pct']:.1f} % in the podman commands it ran as processes"
                              + (f" and {tel['service_cpu_pct']:.1f} % in podman's API service answering its calls"
                                 if tel.get("service_cpu_pct") is not None else "")
                              + f"; provider RSS {tel['provider_rss_kib'] / 1024:.1f} MiB, "
                              f"{dens['provider_rss_per_instance_kib']:.0f} KiB per instance"))
    dip = results.get("density-inprocess")
    if dip and "error" in dip:
        rows.append(_failed("8 density, in-process", dip["error"]))
    elif dip:
        n = dip["count"]
        rows.append(_row("8 density, in-process", f"instances running at once, each sampled every second "
                                                  f"(of {n} launched)", "instances", [dip["reporting"]], "", [],
                         goal="≥ 300",
                         note=f"{dip['running']} running; launched through the API in {dip['launch_s']:.1f} s; "
                              f"fewest samples of one instance {dip['samples_min']} in {dip['samples_expected']} s"))
        rows.append(_row("8 density, in-process", f"provider RSS per instance ({n} instances)", "KiB",
                         [(dip["rss_kib"] - dip["floor_rss_kib"]) / n], "", [],
                         note=f"RSS {dip['rss_kib'] / 1024:.1f} MiB against {dip['floor_rss_kib'] / 1024:.1f} MiB "
                              "with no instance (history, tracks, segments and views of each)"))
        rows.append(_row("8 density, in-process", f"provider CPU, % of one core ({n} instances, "
                                                  f"{dip['seconds']} s)", "%", [dip["cpu_pct"]],
                         "same provider, no instance, same seconds", [dip["floor_cpu_pct"]]))
    up = results.get("upload")
    if up and "error" in up:
        rows.append(_failed("10 API during an upload", up["error"]))
    elif up:
        during, idle = up["during"], up["idle"]
        rows.append(_row("10 API during an upload", f"GET /v1/me while {up['size_gib']} GiB go in and are checked, "
                                                   "slowest answer", "ms", [during["max_ms"]],
                         "the 50 ms goal", [up["goal_ms"]], goal="< 50 ms",
                         note=f"p50 {during['p50_ms']:.1f} ms, p99 {during['p99_ms']:.1f} ms over {during['count']} "
                              f"answers; idle p99 {idle['p99_ms']:.1f} ms; upload {up['upload_s']:.1f} s "
                              f"({up['mib_per_s']:.0f} MiB/s), last chunk {up['last_chunk_ms']:.1f} ms"))
        rows.append(_row("10 API during an upload", "GET /v1/me p99 during the upload", "ms", [during["p99_ms"]],
                         "the same request to the idle provider (p99)", [idle["p99_ms"]]))
    return rows


def _launch_to_ssh_s(results):
    """Benchmark 1's launch to a first command over the desktop's SSH path in this run, each launch."""
    launch = results.get("launch")
    if not isinstance(launch, list):
        return []
    return [r["desktop_to_ssh_s"] for r in launch if "desktop_to_ssh_s" in r]


def _prompt_rows(results):
    got = results.get("prompt")
    if isinstance(got, dict) and "error" in got:
        return [_failed("9 click to prompt", got["error"])]
    if not got or not got.get("runs"):
        return []
    against = _launch_to_ssh_s(results)
    rows = [_row("9 click to prompt", "Launch clicked in the window → shell prompt painted in its terminal tab", "s",
                 [r["total_s"] for r in got["runs"]],
                 "benchmark 1: POST → first command over the desktop's SSH path, this run", against,
                 "≤ 1.0 s median, ≤ 2× launch to SSH",
                 note="" if against else "benchmark 1 not run: no ratio")]
    if got.get("first"):
        rows.append(_row("9 click to prompt", "the same, first launch of a new user (the dialog makes, stores and "
                         "uploads an SSH key)", "s", [got["first"]["total_s"]], "", [], note="one launch"))
    return rows


def _fmt(value):
    if isinstance(value, str):
        return value
    if value is None or value != value:
        return "–"
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}" if abs(value) >= 0.1 else f"{value:.3f}"


def launch_steps(launch, steps_key="steps_ms", total_key="cardhour_to_ssh_s"):
    """Per step: median and p95 in ms, and the share of the median total."""
    steps = []
    for name, label, _, _ in launch_to_ssh.STEPS:
        values = [r[steps_key][name] for r in launch if name in r.get(steps_key, {})]
        if values:
            steps.append((name, label, median(values), percentile(values, 95)))
    total = median([r[total_key] * 1000 for r in launch])
    return steps, total


def _prompt_section(results):
    got = results.get("prompt")
    if not isinstance(got, dict) or not got.get("runs"):
        return []
    table, total = prompt.step_table(got["runs"])
    md = ["", "## Click to prompt, step by step", "",
          "Moments the client recorded (app/BenchPrompt.cpp, `TerminalTab::connectSteps`) and the provider's "
          "launch stages:", "", "| Step | Median | p95 | Share of the median total |", "|---|---|---|---|"]
    for label, m, p in table:
        md.append(f"| {label} | {m:.0f} ms | {p:.0f} ms | {100 * m / total:.0f} % |")
    connect = [r["ssh_connect_ms"] for r in got["runs"]]
    auth = [r["ssh_auth_ms"] for r in got["runs"]]
    md.append(f"| (of the SSH step: connect + key exchange + host key check / authentication) | "
              f"{median(connect):.0f} / {median(auth):.0f} ms | | |")
    md += ["", f"Median total {total:.0f} ms."]
    against = _launch_to_ssh_s(results)
    if against:
        md.append(f"Benchmark 1 in this run (POST → first command over the desktop's SSH path): median "
                  f"{median(against) * 1000:.0f} ms, so click to prompt is {total / (median(against) * 1000):.2f}× it.")
    return md


NOTES_BEGIN = "<!-- notes: written by hand, kept by bench/run -->"
NOTES_END = "<!-- end of notes -->"


def _kept_notes(out_dir):
    """The hand-written section of the previous benchmarks.md (what changed which figure), kept."""
    try:
        with open(os.path.join(out_dir, "benchmarks.md")) as f:
            text = f.read()
    except OSError:
        return []
    if NOTES_BEGIN not in text or NOTES_END not in text:
        return []
    body = text[text.index(NOTES_BEGIN):text.index(NOTES_END) + len(NOTES_END)]
    return [""] + body.split("\n")


EARLIER = "(an earlier run's figure, not measured in this one)"


def _earlier_rows(out_dir, ran):
    """Rows of the previous benchmarks.csv for the benchmarks this run left out (--only), marked
    as earlier figures, so that a partial run does not drop the others from the report."""
    try:
        with open(os.path.join(out_dir, "benchmarks.csv"), newline="") as f:
            previous = list(csv.DictReader(f))
    except OSError:
        return []
    rows = []
    for row in previous:
        if row.get("benchmark") in ran or row.get("measure") == "FAILED":
            continue
        for key in ("cardhour_median", "cardhour_p95", "floor_median", "floor_p95", "ratio"):
            try:
                row[key] = float(row[key])
            except (TypeError, ValueError):
                row[key] = float("nan")
        row["samples"] = int(row.get("samples") or 0)
        note = (row.get("note") or "").replace(EARLIER, "").strip()  # marked once, however old
        row["note"] = f"{EARLIER} {note}".strip()
        rows.append(row)
    return rows


def write(results, info, out_dir):
    rows = rows_of(results)
    rows += _earlier_rows(out_dir, {r["benchmark"] for r in rows} | set(results.get("failed_names", ())))
    with open(os.path.join(out_dir, "benchmarks.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in row.items()})

    plan = results["plan"]
    md = ["# Benchmarks", "",
          "Written by `bench/run` (see [bench/README.md](../bench/README.md)); do not edit by hand. Every figure "
          "is measured against a floor in the same run, on the same machine, so the **ratio** is what compares "
          "across machines and runs; the absolute times move with the machine's load.", "",
          "## Machine and run", "",
          f"- Date: {info['date']}; mode: **{info['mode']}**"
          + (" (fewer repetitions and shorter windows than a full run; see below)" if info["mode"] == "quick" else ""),
          f"- CPU: {info['cpu']}, `nproc` = {info['nproc']}; memory {info['memory_gib']} GiB; kernel {info['kernel']}",
          f"- Load average at the start: {info['load']} (a machine shared with other builds: absolute figures "
          "are noisy, ratios less so)",
          f"- Release build (ccache): {results['build_s']:.0f} s; whole run {info['total_s']:.0f} s "
          f"({', '.join(f'{k} {v:.0f} s' for k, v in info['timings'].items())})",
          "- Commands: " + "; ".join(f"`{c}`" for c in info["commands"]),
          "", "## Results", "",
          "| Benchmark | Measure | CardHour median | CardHour p95 | Floor | Floor median | Ratio | Goal | n | Note |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["measure"] == "FAILED":
            md.append(f"| {r['benchmark']} | **failed** | | | | | | | | {r['note']} |")
            continue
        p95 = _fmt(r["cardhour_p95"]) if r["samples"] > 1 else "–"
        md.append(f"| {r['benchmark']} | {r['measure']} | {_fmt(r['cardhour_median'])} {r['unit']} | "
                  f"{p95} | {r['floor'] or '–'} | {_fmt(r['floor_median'])} | "
                  f"{_fmt(r['ratio'])}{'×' if r['ratio'] == r['ratio'] else ''} | {r['goal']} | {r['samples']} | "
                  f"{r['note']} |")
    md += ["", "Ratio = CardHour median / floor median (for requests/s below 1 means slower than the floor; "
           "for the tick, above 1 means it grows faster than linearly from the smallest count)."]

    launch = results.get("launch")
    if isinstance(launch, list) and launch:
        steps, total = launch_steps(launch)
        slowest = max(steps, key=lambda s: s[2])
        md += ["", "## Launch to SSH-ready, step by step", "",
               "From the instance's launch stages (moments the provider recorded) and the moment the first client "
               "command over SSH succeeded:", "", "| Step | Median | p95 | Share of the median total |",
               "|---|---|---|---|"]
        for _, label, m, p in steps:
            md.append(f"| {label} | {m:.0f} ms | {p:.0f} ms | {100 * m / total:.0f} % |")
        ssh_alone = [r["ssh_command_ms"] for r in launch if "ssh_command_ms" in r]
        if ssh_alone:
            md.append(f"| (for scale: one more `ssh … true` to the ready instance: spawn, handshake, command) | "
                      f"{median(ssh_alone):.0f} ms | {percentile(ssh_alone, 95):.0f} ms | |")
        classic = [r["ssh_classic_kex_ms"] for r in launch if "ssh_classic_kex_ms" in r]
        if classic:
            md.append(f"| (the same with `-o KexAlgorithms=curve25519-sha256`: without OpenSSH's post-quantum "
                      f"sntrup761x25519, its default and the box's first offer) | {median(classic):.0f} ms | "
                      f"{percentile(classic, 95):.0f} ms | |")
        logged = [r["log_sshd_answered_ms"] for r in launch if "log_sshd_answered_ms" in r]
        probes = [r["log_probes"] for r in launch if "log_probes" in r]
        md += ["", f"Median total {total:.0f} ms. **Slowest step: {slowest[1]}**, median {slowest[2]:.0f} ms "
               f"({100 * slowest[2] / total:.0f} % of the total)."]
        after_ready = next((s for s in steps if s[0] == "ready_to_client_ssh"), None)
        if ssh_alone and after_ready and median(ssh_alone) >= 0.8 * after_ready[2]:
            md.append(f"The step after `ready` is the ssh client itself: one more command to the same ready instance "
                      f"takes as long ({median(ssh_alone):.0f} ms), and the floor pays it too.")
        if logged:
            md.append(f"The provider's log agrees: sshd answered its probe a median {median(logged):.0f} ms after "
                      f"the probe began ({median(probes):.0f} probes).")
        desktop = [r for r in launch if "desktop_to_ssh_s" in r]
        if desktop:
            d_steps, d_total = launch_steps(desktop, "desktop_steps_ms", "desktop_to_ssh_s")
            md += ["", "The same launches with the first command over the desktop's own SSH path (core's "
                   "`SshConnection`: libssh with TCP_NODELAY, curve25519, the host key pinned, publickey, one "
                   "exec channel):", "", "| Step | Median | p95 | Share of the median total |", "|---|---|---|---|"]
            for _, label, m, p in d_steps:
                md.append(f"| {label} | {m:.0f} ms | {p:.0f} ms | {100 * m / d_total:.0f} % |")
            parts = {k: [r["desktop_ssh"][k] for r in desktop] for k in ("connect_ms", "auth_ms", "exec_ms")}
            md.append(f"| (of the last step: connect + key exchange + host key check / authentication / exec of "
                      f"`true`, the successful attempt) | {median(parts['connect_ms']):.0f} / "
                      f"{median(parts['auth_ms']):.0f} / {median(parts['exec_ms']):.0f} ms | | |")
            md += ["", f"Median total {d_total:.0f} ms."]
    md += _prompt_section(results)
    md += ["", "## What each benchmark does", "",
           f"1. **Launch to SSH-ready** ({plan['launch_runs']} launches after a warm-up, `base` image, "
           "`cardhour-sim --runtime podman`): from `POST /v1/instances` to the first `ssh … true` that succeeds "
           "with the host key pinned from the API. Floor: `podman run -d` of the same image with the same sshd "
           "setup and the same ssh loop. Floor and CardHour alternate. Each round then runs both once more with "
           "the first command over the desktop's own SSH path instead (`cardhour-bench-ssh-first`: core's "
           "`SshConnection`, started before the POST and handed the port once the API says running, retrying "
           "every 20 ms as the OpenSSH loop does).",
           f"2. **Client start** ({plan['start_runs']} starts after a warm-up, `QT_QPA_PLATFORM=offscreen`, a "
           "throw-away home): from exec to the first paint of the main window once the event loop runs again "
           "(`CARDHOUR_BENCH_STARTUP=1` makes the client print that moment and its RSS, then quit). Floor: "
           "`cardhour-bench-qt-floor`, a QMainWindow with a label and the very same probe.",
           f"3. **Client under load**: `cardhour-sim --runtime inprocess` (no containers; its telemetry still "
           f"samples every running instance once a second and pushes it to the client) with "
           f"{plan['load_instances']} running instances; the client logged in (`CARDHOUR_BENCH_LOGIN_FILE`), "
           f"instances view shown and the first instance's chart open; CPU from /proc/<pid>/stat over "
           f"{plan['load_seconds']} s after 5 s of settling, peak RSS from VmHWM. Floor: the minimal Qt window, "
           "idle, measured over the same seconds.",
           f"4. **Provider API**: wrk (`--latency`, 2 threads) against `GET /v1/instances` "
           f"({plan['api_instances']} instances) and `GET /v1/me` on an in-process sandbox, {plan['api_seconds']} s "
           f"per point after a 1 s warm-up per path, floor and provider alternating {plan.get('api_rounds', 1)} "
           "times per point (the figures are the medians; the note lists each round's ratio). Floor: "
           "`cardhour-bench-http-floor`, the provider's HTTP stack (backend-sim/src/http) serving the same bytes as "
           "a constant. wrk shares the 2 cores with the server.",
           f"5. **Metering + telemetry tick** (`cardhour-bench-tick`, {plan['tick_ticks']} ticks after a warm-up): "
           "`InstanceService::tick` (billing) plus `Telemetry::sampleNow` (simulated cards, history, events) on a "
           "real SQLite file. What stands in: the in-process runtime (no container usage to read: with podman "
           "that is one cgroup pass, not timed here), instances written into SQLite as running with their compute "
           "segment open (launching 10 000 through the API would tick once per launch), no client subscribed to "
           "events, and a manual clock moved 1 s per tick. Floor: the smallest count's tick scaled linearly.",
           f"6. **Density** (up to {plan['density_limit']} instances, `rtx3090` type with capacity and the "
           "per-user instance limit raised in a catalog of the benchmark's own, stops early when a launch fails, "
           f"less than 2 GiB of memory is left or after {plan.get('density_launch_minutes', 40)} minutes of "
           "launching, and says which): instances launched through the API, "
           f"{plan.get('density_parallel', 1)} at a time, each waited for until running; then every one checked "
           "over SSH at once (one handshake each, 12 at a time) and its telemetry read back over a "
           f"{plan.get('density_seconds', 10)} s window (it counts when it has a sample for nearly every second). "
           "Memory per instance counted whole (bench/lib/density_memory.py): the container's cgroup without page "
           "cache plus the PSS of every process the engine keeps for it outside the cgroup (conmon, slirp4netns, "
           "any port forwarder). The provider's boxes use slirp4netns with its own port forwarding "
           "(`slirp4netns:port_handler=slirp4netns`, no rootlessport process per box). Floor: "
           f"{plan['density_floor']} bare `podman run -d` containers of the same image and sshd setup on podman's "
           "default network, counted the same way. Every container is removed at the end, also on failure or "
           "ctrl-c.",
           f"7. **Event fan-out** ({plan.get('fanout_streams', 1000)} `GET /v1/events` streams, 8 per account, "
           f"{plan.get('fanout_instances', 100)} in-process instances sending metrics at 1 Hz, "
           f"{plan.get('fanout_seconds', 15)} s): every stream read as fast as it comes by one Python process; "
           "events received per stream against what its account's instances sent, the lag from each sample's "
           "time to its arrival in the first and second half of the window, the provider's CPU. Floor: the same "
           "provider and instances over the same seconds before any stream opens. A reader that does not keep "
           "up is cut off after 1 MiB of backlog (tests/backend/http/tst_eventbacklog), not measured here.",
           f"8. **Density, in-process** ({plan.get('density_inprocess_count', 300)} instances, "
           f"`cardhour-sim --runtime inprocess`, {plan.get('density_inprocess_seconds', 10)} s): launched "
           "through the API, then every one's telemetry read back over a window: an instance counts when it "
           "has a sample for (nearly) every second of it; the provider's RSS and CPU over the window. Floor: "
           "the same provider over the same seconds before any instance runs. No containers: what this bounds "
           "is the provider's own cost per host, not the engine's (benchmark 6).",
           f"9. **Click to prompt** ({plan.get('prompt_runs', 3)} launches after a warm-up, `base` image, "
           "`cardhour-sim --runtime podman`): the real client (offscreen, `CARDHOUR_BENCH_PROMPT=1`, inside a "
           "private D-Bus session with gnome-keyring) logged in; the window's Launch action opens the launch dialog, "
           "its Launch button is clicked once enabled, the terminal tab is opened the moment the event stream says "
           "the host runs, and the run ends when a prompt is painted in it. Steps from moments the client and the "
           "provider recorded. Compared with benchmark 1's launch over the desktop's SSH path in the same run.",
           "", "Benchmarks are never timed assertions in the tests: `bench/run` measures, the tests check "
           "behaviour."]
    md += _kept_notes(out_dir)
    with open(os.path.join(out_dir, "benchmarks.md"), "w") as f:
        f.write("\n".join(md) + "\n")

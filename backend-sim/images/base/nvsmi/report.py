"""nvidia-smi -q (the detailed report) and -q -x (the same as XML), with -d sections.

One tree per card feeds both layouts, so the text and the XML always say the same thing. Labels,
element names and units follow NVIDIA's documented -q layout of the 550 drivers (XML:
nvsmi_device_v12.dtd); what a simulated card cannot know is N/A, as on real cards that lack it.
"""
from xml.sax.saxutils import escape

from status import box_processes, invalid_arguments, memory_reserved_mib, timestamp_report

# -d names the real tool accepts that this one answers, and the sections they select.
DISPLAY_SECTIONS = {"MEMORY", "UTILIZATION", "ECC", "TEMPERATURE", "POWER", "CLOCK", "COMPUTE", "PIDS",
                    "PERFORMANCE"}
LABEL_WIDTH = 42
BAR1_MIB = 256


def node(label, tag, value=None, children=None, section=None):
    return {"label": label, "tag": tag, "value": value, "children": children, "section": section}


def _architecture(name):
    for key, arch in (("H100", "Hopper"), ("A100", "Ampere"), ("3090", "Ampere"), ("L40", "Ada Lovelace"),
                      ("Ada", "Ada Lovelace"), ("4090", "Ada Lovelace")):
        if key in name:
            return arch
    return "N/A"


def _brand(name):
    if "GeForce" in name:
        return "GeForce"
    if "RTX" in name:
        return "NVIDIA RTX"
    return "NVIDIA"


def _mib(v):
    return f"{int(round(v))} MiB"


def _pct(v):
    return f"{int(round(v))} %"


def _w(v):
    return f"{float(v):.2f} W"


def _mhz(v):
    return f"{int(v)} MHz"


def gpu_tree(status, g, procs):
    na = "N/A"
    used, total = g["memory_used_mib"], g["memory_total_mib"]
    reserved = memory_reserved_mib(g)
    clocks, top = g["clocks_mhz"], g["max_clocks_mhz"]
    idle = g["pstate"] == "P8"
    processes = [node("", "process_info", children=[
        node("GPU instance ID", "gpu_instance_id", na),
        node("Compute instance ID", "compute_instance_id", na),
        node("Process ID", "pid", str(p["pid"])),
        node("Type", "type", "C", section="nested"),
        node("Name", "process_name", p["path"], section="nested"),
        node("Used GPU Memory", "used_memory", _mib(p["used_memory_mib"]), section="nested"),
    ]) for p in procs if p["gpu"] == g["index"]]
    return [
        node("Product Name", "product_name", g["name"]),
        node("Product Brand", "product_brand", _brand(g["name"])),
        node("Product Architecture", "product_architecture", _architecture(g["name"])),
        node("Display Mode", "display_mode", "Disabled"),
        node("Display Active", "display_active", "Disabled"),
        node("Persistence Mode", "persistence_mode", "Disabled"),
        node("MIG Mode", "mig_mode", children=[node("Current", "current_mig", na), node("Pending", "pending_mig", na)]),
        node("Accounting Mode", "accounting_mode", "Disabled"),
        node("Accounting Mode Buffer Size", "accounting_mode_buffer_size", "4000"),
        node("Driver Model", "driver_model", children=[node("Current", "current_dm", na),
                                                       node("Pending", "pending_dm", na)]),
        node("Serial Number", "serial", na),
        node("GPU UUID", "uuid", g["uuid"]),
        node("Minor Number", "minor_number", str(g["minor_number"])),
        node("VBIOS Version", "vbios_version", na),
        node("MultiGPU Board", "multigpu_board", "No"),
        node("Board ID", "board_id", f"0x{g['pci_bus'] << 8:x}"),
        node("GPU Part Number", "gpu_part_number", na),
        node("Module Id", "gpu_module_id", "1"),
        node("GPU Virtualization Mode", "gpu_virtualization_mode", children=[
            node("Virtualization Mode", "virtualization_mode", "None"),
            node("Host VGPU Mode", "host_vgpu_mode", na)]),
        node("PCI", "pci", children=[
            node("Bus", "pci_bus", f"0x{g['pci_bus']:02X}"),
            node("Device", "pci_device", f"0x{g['pci_device']:02X}"),
            node("Domain", "pci_domain", f"0x{g['pci_domain']:04X}"),
            node("Device Id", "pci_device_id", na),
            node("Bus Id", "pci_bus_id", g["bus_id"]),
            node("Sub System Id", "pci_sub_system_id", na),
            node("GPU Link Info", "pci_gpu_link_info", children=[
                node("PCIe Generation", "pcie_gen", children=[
                    node("Max", "max_link_gen", "4"), node("Current", "current_link_gen", "1" if idle else "4"),
                    node("Device Current", "device_current_link_gen", "1" if idle else "4"),
                    node("Device Max", "max_device_link_gen", "4"), node("Host Max", "max_host_link_gen", "4")]),
                node("Link Width", "link_widths", children=[
                    node("Max", "max_link_width", "16x"), node("Current", "current_link_width", "16x")])]),
            node("Tx Throughput", "tx_util", "0 KB/s"),
            node("Rx Throughput", "rx_util", "0 KB/s")]),
        node("Fan Speed", "fan_speed", _pct(g["fan_speed_pct"]), section="PERFORMANCE"),
        node("Performance State", "performance_state", g["pstate"], section="PERFORMANCE"),
        node("Clocks Event Reasons", "clocks_event_reasons", section="PERFORMANCE", children=[
            node("Idle", "clocks_event_reason_gpu_idle", "Active" if idle else "Not Active"),
            node("Applications Clocks Setting", "clocks_event_reason_applications_clocks_setting", "Not Active"),
            node("SW Power Cap", "clocks_event_reason_sw_power_cap",
                 "Active" if g["power_draw_w"] >= g["power_limit_w"] * 0.99 else "Not Active"),
            node("HW Slowdown", "clocks_event_reason_hw_slowdown", "Not Active"),
            node("SW Thermal Slowdown", "clocks_event_reason_sw_thermal_slowdown", "Not Active")]),
        node("FB Memory Usage", "fb_memory_usage", section="MEMORY", children=[
            node("Total", "total", _mib(total)), node("Reserved", "reserved", _mib(reserved)),
            node("Used", "used", _mib(used)), node("Free", "free", _mib(total - used - reserved))]),
        node("BAR1 Memory Usage", "bar1_memory_usage", section="MEMORY", children=[
            node("Total", "total", _mib(BAR1_MIB)), node("Used", "used", _mib(1)),
            node("Free", "free", _mib(BAR1_MIB - 1))]),
        node("Compute Mode", "compute_mode", "Default", section="COMPUTE"),
        node("Utilization", "utilization", section="UTILIZATION", children=[
            node("Gpu", "gpu_util", _pct(g["utilization_gpu"])),
            node("Memory", "memory_util", _pct(g["utilization_memory"])),
            node("Encoder", "encoder_util", _pct(0)), node("Decoder", "decoder_util", _pct(0)),
            node("JPEG", "jpeg_util", _pct(0)), node("OFA", "ofa_util", _pct(0))]),
        node("ECC Mode", "ecc_mode", section="ECC", children=[node("Current", "current_ecc", na),
                                                             node("Pending", "pending_ecc", na)]),
        node("Temperature", "temperature", section="TEMPERATURE", children=[
            node("GPU Current Temp", "gpu_temp", f"{int(round(g['temperature_c']))} C"),
            node("GPU T.Limit Temp", "gpu_temp_tlimit", na),
            node("GPU Shutdown Temp", "gpu_temp_max_threshold", na),
            node("GPU Slowdown Temp", "gpu_temp_slow_threshold", na),
            node("GPU Max Operating Temp", "gpu_temp_max_gpu_threshold", na),
            node("GPU Target Temperature", "gpu_target_temperature", na),
            node("Memory Current Temp", "memory_temp", na),
            node("Memory Max Operating Temp", "gpu_temp_max_mem_threshold", na)]),
        node("GPU Power Readings", "gpu_power_readings", section="POWER", children=[
            node("Power Draw", "power_draw", _w(g["power_draw_w"])),
            node("Current Power Limit", "current_power_limit", _w(g["power_limit_w"])),
            node("Requested Power Limit", "requested_power_limit", _w(g["power_limit_w"])),
            node("Default Power Limit", "default_power_limit", _w(g["power_limit_w"])),
            node("Min Power Limit", "min_power_limit", _w(round(g["power_limit_w"] * 0.25))),
            node("Max Power Limit", "max_power_limit", _w(g["power_limit_w"]))]),
        node("Clocks", "clocks", section="CLOCK", children=[
            node("Graphics", "graphics_clock", _mhz(clocks["graphics"])), node("SM", "sm_clock", _mhz(clocks["sm"])),
            node("Memory", "mem_clock", _mhz(clocks["memory"])), node("Video", "video_clock", _mhz(clocks["video"]))]),
        node("Max Clocks", "max_clocks", section="CLOCK", children=[
            node("Graphics", "graphics_clock", _mhz(top["graphics"])), node("SM", "sm_clock", _mhz(top["sm"])),
            node("Memory", "mem_clock", _mhz(top["memory"])), node("Video", "video_clock", _mhz(top["video"]))]),
        node("Processes", "processes", "None" if not processes else None, children=processes or None,
             section="PIDS"),
    ]


def parse_display(value):
    sections = set()
    for part in value.split(","):
        part = part.strip().upper()
        if part not in DISPLAY_SECTIONS:
            raise invalid_arguments()
        sections.add(part)
    return sections


def _keep(nodes, sections):
    return [n for n in nodes if not sections or n["section"] in sections]


def _text_lines(nodes, depth, out):
    for n in nodes:
        indent = "    " * depth
        if n["tag"] == "process_info":
            _text_lines(n["children"], depth, out)
            continue
        if n["section"] == "nested":  # a process's details sit one deeper than its id
            indent += "    "
        if n["children"]:
            out.append(indent + n["label"])
            _text_lines(n["children"], depth + 1, out)
        else:
            out.append(f"{(indent + n['label']).ljust(LABEL_WIDTH)}: {n['value']}")


def print_text(status, gpus, sections):
    procs = box_processes(status) if not sections or "PIDS" in sections else []
    out = ["", "==============NVSMI LOG==============", "",
           f"{'Timestamp'.ljust(LABEL_WIDTH)}: {timestamp_report()}",
           f"{'Driver Version'.ljust(LABEL_WIDTH)}: {status['driver_version']}",
           f"{'CUDA Version'.ljust(LABEL_WIDTH)}: {status['cuda_version']}",
           f"{'CardHour Sandbox'.ljust(LABEL_WIDTH)}: SIMULATED GPUs",
           "", f"{'Attached GPUs'.ljust(LABEL_WIDTH)}: {len(status['gpus'])}"]
    for g in gpus:
        out.append(f"GPU {g['bus_id']}")
        _text_lines(_keep(gpu_tree(status, g, procs), sections), 1, out)
        out.append("")
    print("\n".join(out))


def _xml_lines(nodes, depth, out):
    tabs = "\t" * depth
    for n in nodes:
        if n["children"]:
            out.append(f"{tabs}<{n['tag']}>")
            _xml_lines(n["children"], depth + 1, out)
            out.append(f"{tabs}</{n['tag']}>")
        elif n["tag"] == "processes":
            out.append(f"{tabs}<processes>")
            out.append(f"{tabs}</processes>")
        else:
            out.append(f"{tabs}<{n['tag']}>{escape(n['value'])}</{n['tag']}>")


def print_xml(status, gpus, sections):
    procs = box_processes(status) if not sections or "PIDS" in sections else []
    out = ['<?xml version="1.0" ?>', '<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">',
           "<!-- CardHour Sandbox: SIMULATED GPUs -->", "<nvidia_smi_log>",
           f"\t<timestamp>{timestamp_report()}</timestamp>",
           f"\t<driver_version>{escape(status['driver_version'])}</driver_version>",
           f"\t<cuda_version>{escape(status['cuda_version'])}</cuda_version>",
           f"\t<attached_gpus>{len(status['gpus'])}</attached_gpus>"]
    for g in gpus:
        out.append(f'\t<gpu id="{g["bus_id"]}">')
        _xml_lines(_keep(gpu_tree(status, g, procs), sections), 2, out)
        out.append("\t</gpu>")
    out.append("</nvidia_smi_log>")
    print("\n".join(out))

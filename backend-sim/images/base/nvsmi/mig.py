"""nvidia-smi -L's MIG lines and `nvidia-smi mig -lgi / -lci` for a box lent a MIG slice."""
from status import SmiError, invalid_arguments, load_status


def list_lines(g):
    """The line -L prints under a card for its MIG device (none for a whole card)."""
    mig = g.get("mig")
    if not mig:
        return []
    return [f"  MIG {mig['profile']:<12}Device {0:>2}: (UUID: {mig['uuid']})"]


def _mig_cards(status):
    cards = [g for g in status["gpus"] if g.get("mig")]
    if not cards:
        raise SmiError("No MIG-enabled devices found.", 6)
    return cards


def _frame(title, header, rows):
    width = max(len(header[0]), *(len(r) for r in rows)) + 2
    print("+" + "-" * width + "+")
    print("| " + title.ljust(width - 1) + "|")
    for h in header:
        print("| " + h.ljust(width - 1) + "|")
    print("|" + "=" * width + "|")
    for r in rows:
        print("| " + r.ljust(width - 1) + "|")
    print("+" + "-" * width + "+")


def list_gpu_instances(status):
    rows = []
    for g in _mig_cards(status):
        m = g["mig"]
        place = f"{m['placement_start']}:{m['placement_size']}"
        rows.append(f"{g['index']:>3}  MIG {m['profile']:<12}{m['profile_id']:>5}{m['gpu_instance_id']:>9}"
                    f"{place:>13}     ")
    _frame("GPU instances:",
           ["GPU   Name               Profile  Instance   Placement  ",
            "                           ID       ID       Start:Size "], rows)


def list_compute_instances(status):
    rows = []
    for g in _mig_cards(status):
        m = g["mig"]
        name = f"MIG {m['profile']}"
        # The one compute instance spanning the whole GPU instance: profile id 0..6 by slices.
        rows.append(f"{g['index']:>3}{m['gpu_instance_id']:>7}       {name:<20}{m['compute_slices'] - 1:>5}"
                    f"{m['compute_instance_id']:>9}{'0:' + str(m['compute_slices']):>12}     ")
    _frame("Compute instances:",
           ["GPU     GPU       Name             Profile   Instance   Placement ",
            "      Instance                       ID        ID       Start:Size",
            "        ID                                                         "], rows)


def mig(argv):
    if argv in (["-lgi"], ["--list-gpu-instances"]):
        list_gpu_instances(load_status())
    elif argv in (["-lci"], ["--list-compute-instances"]):
        list_compute_instances(load_status())
    else:
        raise invalid_arguments()
    return 0

"""Runs the experiments of one of uet-htsim's validation files (validate_*.txt) in trimswitch, and in htsim_uec too when
HTSIM_UEC names its binary, and prints a table: per experiment, the tail and median flow completion of each simulator
(the finish times, as uet-htsim's validate.py reads them: the files' flows start at 0), the flows finished, the wall
time and peak memory of each process, and the target the file states. Each htsim_uec flag is mapped to trimswitch's;
one without an equivalent is named on a line of its own, and the experiment still runs without it.

    python3 bench/uet/validate.py FILE    (bench/uet/validate.sh runs it; ONLY=REGEX keeps the experiments it names)
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

# htsim_uec's flag -> what trimswitch's fabric takes for it ({} is the value), or why it has no equivalent.
MAPPED = {
    "-end": ["--end-us", "{}"],
    "-paths": ["--paths", "{}"],
    "-failed": ["--fail", "{}"],
    "-cwnd": ["--initial-window", "{}"],
    "-q": ["--queue-packets", "{}"],
    "-seed": ["--seed", "{}"],
    "-sack_threshold": ["--ack-bytes", "{}"],
    "-conn_reuse": ["--conn-reuse"],
    "-sender_cc_only": ["--cc", "sender"],
    "-sender_cc": [],
    "-receiver_cc_only": ["--cc", "receiver"],
    "-receiver_cc": ["--cc", "both"],
}
UNMAPPED = {
}
BALANCERS = {"oblivious", "bitmap", "reps", "mixed"}
BASE = ["--transport", "uet", "--mechanism", "ideal", "--mtu", "4086"]


class BadFile(Exception):
    """A line of the validation file that cannot be read: the one line that says so."""


def experiments(path):
    """The file's experiments: name, matrix, htsim_uec's parameters, the stated tail target and per-flow targets."""
    found, current = [], None
    for number, raw in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        try:
            current = read_line(raw.strip(), found, current)
        except (ValueError, IndexError) as e:
            raise BadFile(f"{path} line {number}: '{raw.strip()}' ({e})") from e
    return found


def read_line(line, found, current):
    """Reads one line into the experiments found so far; returns the experiment it belongs to."""
    if not line:
        return current
    if not line.startswith("!"):
        current = {"matrix": line, "name": line, "params": [], "tail": None, "flows": {}}
        found.append(current)
        return current
    if current is None:
        raise ValueError("it comes before any connection matrix")
    key, _, value = line[1:].partition(" ")
    value = value.strip()
    if key == "Experiment":
        current["name"] = value
    elif key == "Param":
        if not value:
            raise ValueError("!Param names no flag")
        current["params"].append(value.split())
    elif key == "tailFCT":
        current["tail"] = float(value)
    elif key == "FCT":
        flow, target = value.split()
        current["flows"][flow] = float(target)
    return current


def ours_flags(params, folder):
    """trimswitch's flags for htsim_uec's parameters, and a line for each parameter that has no equivalent."""
    flags, missing = [], []
    for words in params:
        flag, values = words[0], words[1:]
        if not values and (flag in ("-topo", "-load_balancing_algo") or "{}" in MAPPED.get(flag, [])):
            missing.append(f"{flag}: has no value, left out")
        elif flag == "-topo":
            flags += ["--topology", os.path.join(folder, values[0])]
        elif flag == "-load_balancing_algo" and values and values[0] in BALANCERS:
            flags += ["--load-balancer", values[0]]
        elif flag in MAPPED:
            flags += [part.format(values[0]) if "{}" in part else part for part in MAPPED[flag]]
        else:
            missing.append(f"{' '.join(words)}: {UNMAPPED.get(flag, 'no equivalent in trimswitch fabric')}")
    return flags, missing


def timed(command, cwd, out):
    """Runs command under /usr/bin/time: its exit code, wall seconds and peak resident KB."""
    timing = out + ".time"
    with open(out, "w", encoding="utf-8") as sink:
        code = subprocess.call(["/usr/bin/time", "-f", "%e %M", "-o", timing] + command, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT)
    try:
        wall, peak = open(timing, encoding="utf-8").read().split()[-2:]
        return code, float(wall), int(peak)
    except (OSError, ValueError):
        return code, float("nan"), 0


def summary(finishes, connections, code, wall, peak, error=None):
    if code != 0:
        return {"error": error or f"exit {code}"}
    return {"tail": max(finishes, default=float("nan")), "p50": statistics.median(finishes) if finishes else float("nan"),
            "done": len(finishes), "of": connections, "wall": wall, "peak": peak}


def run_ours(exp, folder, work, n, flags):
    out = os.path.join(work, f"{n}.trimswitch")
    command = [os.path.abspath("cli/trimswitch"), "fabric", "--matrix", os.path.join(folder, exp["matrix"])] + BASE + flags + ["--json", out + ".json"]
    code, wall, peak = timed(command, work, out)
    if code != 0:
        lines = [l for l in open(out, encoding="utf-8").read().splitlines() if l.startswith("trimswitch:")]
        return summary([], 0, code, wall, peak, lines[-1] if lines else None)
    report = json.load(open(out + ".json", encoding="utf-8"))
    finishes = [f["finishUs"] for f in report["flows"] if "finishUs" in f]
    return summary(finishes, len(report["flows"]), code, wall, peak)


def run_htsim(exp, folder, work, n, binary):
    out = os.path.join(work, f"{n}.htsim")
    params = []
    for words in exp["params"]:
        params += [words[0], os.path.join(folder, words[1])] if words[0] == "-topo" and len(words) > 1 else words
    code, wall, peak = timed([binary, "-tm", os.path.join(folder, exp["matrix"])] + params, work, out)
    text = open(out, encoding="utf-8", errors="replace").read()
    finishes = [float(l.split(" finished at ")[1].split()[0]) for l in text.splitlines() if " finished at " in l]
    return summary(finishes, connections(os.path.join(folder, exp["matrix"]), ["-conn_reuse"] in exp["params"]), code, wall, peak)


def connections(matrix, reuse):
    """The matrix's connections: its flow lines, or with connection reuse one per id (a line without an id its own)."""
    seen, count = set(), 0
    if not os.path.isfile(matrix):
        return 0
    for line in open(matrix, encoding="utf-8", errors="replace"):
        words = line.split()
        if not words or "->" not in words[0]:
            continue
        flow_id = words[words.index("id") + 1] if "id" in words[:-1] else None
        if reuse and flow_id is not None:
            if flow_id in seen:
                continue
            seen.add(flow_id)
        count += 1
    return count


def cell(result):
    if result is None:
        return "-"
    if "error" in result:
        return "failed: " + result["error"]
    return (f"{result['tail']:.1f} / {result['p50']:.1f} µs, {result['done']} of {result['of']}, "
            f"{result['wall']:.1f} s, {result['peak'] / 1024:.0f} MB")


def main():
    if len(sys.argv) != 2 or not os.path.isfile(sys.argv[1]):
        print("validate: give one of uet-htsim's validate_*.txt files (its matrices are read beside it), got "
              + repr(" ".join(sys.argv[1:])), file=sys.stderr)
        return 2
    path = sys.argv[1]
    folder = os.path.dirname(os.path.abspath(path))
    binary = os.environ.get("HTSIM_UEC")
    if binary and not os.access(binary, os.X_OK):
        print(f"validate: HTSIM_UEC is not an executable: {binary}", file=sys.stderr)
        return 2
    try:
        only = re.compile(os.environ.get("ONLY", ""))
        found = experiments(path)
    except (BadFile, re.error, OSError) as e:
        print(f"validate: {e}", file=sys.stderr)
        return 2
    rows = []
    with tempfile.TemporaryDirectory(prefix="trimswitch-validate-") as work:
        for n, exp in enumerate(found, 1):
            if not only.search(exp["name"]):
                continue
            flags, missing = ours_flags(exp["params"], folder)
            for line in missing:
                print(f"{exp['name']}: {line}")
            ours = run_ours(exp, folder, work, n, flags)
            theirs = run_htsim(exp, folder, work, n, binary) if binary else None
            rows.append((exp, ours, theirs, len(missing)))
    print()
    print(f"{os.path.basename(path)}: tail / p50 finish, flows finished, wall time, peak memory")
    print("| experiment | target tail | htsim_uec | trimswitch | tail vs htsim_uec | unmapped flags |")
    print("|---|---|---|---|---|---|")
    for exp, ours, theirs, missing in rows:
        target = f"{exp['tail']:.0f} µs" if exp["tail"] else "-"
        target += "".join(f", {flow} {fct:.0f} µs" for flow, fct in exp["flows"].items())
        diff = "-"
        if theirs and "tail" in theirs and "tail" in ours and theirs["tail"] > 0:
            diff = f"{100 * (ours['tail'] - theirs['tail']) / theirs['tail']:+.1f} %"
        print(f"| {exp['name']} | {target} | {cell(theirs)} | {cell(ours)} | {diff} | {missing} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

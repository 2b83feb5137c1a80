"""Runs the experiments of one of uet-htsim's validation files (validate_*.txt) in trimswitch, and in htsim_uec too when
HTSIM_UEC names its binary, and prints a table: per experiment, the tail and median flow completion of each simulator
(the finish times, as uet-htsim's validate.py reads them: the files' flows start at 0), the flows finished, the wall
time and peak memory of each process, and the target the file states. Each htsim_uec flag is mapped to trimswitch's;
one without an equivalent is named on a line of its own, and the experiment still runs without it.

    python3 bench/uet/validate.py [--seeds N] FILE    (bench/uet/validate.sh runs it; ONLY=REGEX keeps the experiments it names)

With --seeds N (or SEEDS=N) each experiment runs with seeds 1 to N in each simulator (htsim_uec's -seed, trimswitch's
--seed), and the table gives per experiment the mean tail of each, its standard error, the spread of one seed's tail
(standard deviation over mean), and the verdict: the means within 5 %, or, where one simulator's spread exceeds 5 %,
within two standard errors of their difference; an experiment where a flow or message is left unfinished, or a run
fails, does not agree.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

import seeds as agreement

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
    # Both read by oversubscribed_cc, with the CC flags around them.
    "-oversubscribed_cc": [],
    "-force_disable_oversubscribed_cc": [],
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
    return flags + oversubscribed_cc(params), missing


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


def summary(finishes, connections, code, wall, peak, error=None, messages=(0, 0)):
    """One run's figures; messages: (finished, of) with connection reuse, where a connection carries several."""
    if code != 0:
        return {"error": error or f"exit {code}"}
    return {"tail": max(finishes, default=float("nan")), "p50": statistics.median(finishes) if finishes else float("nan"),
            "done": len(finishes), "of": connections, "wall": wall, "peak": peak, "msgs": messages[0], "msgs_of": messages[1]}


def run_ours(exp, folder, work, n, flags, seed=None):
    out = os.path.join(work, f"{n}.trimswitch")
    seeded = ["--seed", str(seed)] if seed is not None else []
    command = ([os.path.abspath("cli/trimswitch"), "fabric", "--matrix", os.path.join(folder, exp["matrix"])] + BASE + flags + seeded
               + ["--json", out + ".json"])
    code, wall, peak = timed(command, work, out)
    if code != 0:
        lines = [l for l in open(out, encoding="utf-8").read().splitlines() if l.startswith("trimswitch:")]
        return summary([], 0, code, wall, peak, lines[-1] if lines else None)
    report = json.load(open(out + ".json", encoding="utf-8"))
    finishes = [f["finishUs"] for f in report["flows"] if "finishUs" in f]
    messages = [m for f in report["flows"] for m in f.get("messages", [])]
    return summary(finishes, len(report["flows"]), code, wall, peak, None, (sum("finishUs" in m for m in messages), len(messages)))


def run_htsim(exp, folder, work, n, binary, seed=None):
    out = os.path.join(work, f"{n}.htsim")
    params = ["-seed", str(seed)] if seed is not None else []
    for words in exp["params"]:
        if seed is not None and words[0] == "-seed":
            continue
        params += [words[0], os.path.join(folder, words[1])] if words[0] == "-topo" and len(words) > 1 else words
    code, wall, peak = timed([binary, "-tm", os.path.join(folder, exp["matrix"])] + params, work, out)
    text = open(out, encoding="utf-8", errors="replace").read()
    done = [l for l in text.splitlines() if " finished at " in l]
    finishes = [float(l.split(" finished at ")[1].split()[0]) for l in done]
    matrix = os.path.join(folder, exp["matrix"])
    reuse = ["-conn_reuse"] in exp["params"]
    # With connection reuse, each connection's line says how many messages it completed.
    messages = (sum(int(l.split(" total messages ")[1].split()[0]) for l in done if " total messages " in l), connections(matrix, False)) if reuse else (0, 0)
    return summary(finishes, connections(matrix, reuse), code, wall, peak, None, messages)


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
    return (f"{result['tail']:.1f} / {result['p50']:.1f} µs, {result['done']} of {result['of']}{messages_of(result)}, "
            f"{result['wall']:.1f} s, {result['peak'] / 1024:.0f} MB")


def oversubscribed_cc(params):
    """uet-htsim's choice of its oversubscribed receiver CC as trimswitch's --oversubscribed-cc: main_uec.cpp sets it by
    its flags in order, then turns it on by itself on an oversubscribed tree unless a sender CC flag came (so
    -sender_cc -receiver_cc runs without it, -receiver_cc alone with it); it slows only the receivers' pulls."""
    sender = receiver = on = disabled = False
    for words in params:
        flag = words[0]
        if flag in ("-receiver_cc_only", "-sender_cc_only"):
            sender, receiver, on = flag == "-sender_cc_only", flag == "-receiver_cc_only", False
        elif flag in ("-sender_cc", "-sender_cc_algo"):
            sender, on = True, on and flag == "-sender_cc_algo"
        elif flag == "-receiver_cc":
            receiver = True
        elif flag in ("-oversubscribed_cc", "-force_disable_oversubscribed_cc"):
            on, disabled = flag == "-oversubscribed_cc", disabled or flag != "-oversubscribed_cc"
    if not receiver or not (on or disabled or sender):
        return []  # trimswitch's default, auto, decides as htsim_uec does
    return ["--oversubscribed-cc", "on" if on else "off"]


def messages_of(result):
    return f" ({result['msgs']} of {result['msgs_of']} messages)" if result.get("msgs_of") else ""


def arguments(argv):
    """The validation file and the number of seeds (0: one run each with each simulator's own seed), or None."""
    seeds = os.environ.get("SEEDS", "")
    if len(argv) == 3 and argv[0] == "--seeds":
        seeds, argv = argv[1], argv[2:]
    if len(argv) != 1 or not os.path.isfile(argv[0]):
        return None, "give one of uet-htsim's validate_*.txt files (its matrices are read beside it), got " + repr(" ".join(argv))
    if seeds and not (seeds.isdigit() and 1 <= int(seeds) <= 1000):
        return None, f"the number of seeds is a whole number from 1 to 1000, got {seeds!r}"
    return (argv[0], int(seeds or 0)), None


def main():
    given, problem = arguments(sys.argv[1:])
    if problem:
        print(f"validate: {problem}", file=sys.stderr)
        return 2
    path, seeds = given
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
            params = [words for words in exp["params"] if not seeds or words[0] != "-seed"]
            flags, missing = ours_flags(params, folder)
            for line in missing:
                print(f"{exp['name']}: {line}")
            if seeds:
                rows.append((exp, over_seeds(exp, folder, work, n, flags, binary, seeds), len(missing)))
                continue
            ours = run_ours(exp, folder, work, n, flags)
            theirs = run_htsim(exp, folder, work, n, binary) if binary else None
            rows.append((exp, ours, theirs, len(missing)))
    print()
    if seeds:
        seeds_table(path, rows, seeds)
    else:
        table(path, rows)
    return 0


def over_seeds(exp, folder, work, n, flags, binary, seeds):
    """Each simulator's results with seeds 1 to seeds, one line printed per seed as it ends."""
    runs = {"htsim_uec": [], "trimswitch": []}
    for seed in range(1, seeds + 1):
        runs["trimswitch"].append(run_ours(exp, folder, work, n, flags, seed))
        if binary:
            runs["htsim_uec"].append(run_htsim(exp, folder, work, n, binary, seed))
        print(f"{exp['name']}, seed {seed}: " + "; ".join(f"{who} {cell(r[-1])}" for who, r in runs.items() if r), flush=True)
    return runs


def target_of(exp):
    target = f"{exp['tail']:.0f} µs" if exp["tail"] else "-"
    return target + "".join(f", {flow} {fct:.0f} µs" for flow, fct in exp["flows"].items())


def table(path, rows):
    print(f"{os.path.basename(path)}: tail / p50 finish, flows finished, wall time, peak memory")
    print("| experiment | target tail | htsim_uec | trimswitch | tail vs htsim_uec | unmapped flags |")
    print("|---|---|---|---|---|---|")
    for exp, ours, theirs, missing in rows:
        diff = "-"
        if theirs and "tail" in theirs and "tail" in ours and theirs["tail"] > 0:
            diff = f"{100 * (ours['tail'] - theirs['tail']) / theirs['tail']:+.1f} %"
        print(f"| {exp['name']} | {target_of(exp)} | {cell(theirs)} | {cell(ours)} | {diff} | {missing} |")


def seeds_table(path, rows, count):
    print(f"{os.path.basename(path)}, seeds 1 to {count}: mean tail ± standard error (one seed's spread), flows finished"
          " of all runs, mean wall time and largest peak memory, and whether the tails agree")
    print("| experiment | target tail | htsim_uec | trimswitch | flows finished (htsim_uec / trimswitch) | wall, peak (htsim_uec / trimswitch) | agrees | unmapped flags |")
    print("|---|---|---|---|---|---|---|---|")
    for exp, runs, missing in rows:
        tails, finished, costs, complete = {}, [], [], True
        for who, results in runs.items():
            if not results:
                continue
            good = [r for r in results if "tail" in r]
            complete &= len(good) == len(results) and all(r["done"] == r["of"] and r["msgs"] == r["msgs_of"] for r in good)
            tails[who] = [r["tail"] for r in good]
            totals = {key: sum(r[key] for r in good) for key in ("done", "of", "msgs", "msgs_of")}
            finished.append(f"{totals['done']} of {totals['of']}{messages_of(totals)}"
                            + ("" if len(good) == len(results) else f", {len(results) - len(good)} runs failed"))
            costs.append(f"{statistics.mean(r['wall'] for r in good):.1f} s, {max(r['peak'] for r in good) / 1024:.0f} MB" if good else "-")
        verdict = agreement.verdict(tails.get("htsim_uec"), tails.get("trimswitch"), complete)
        print(f"| {exp['name']} | {target_of(exp)} | {agreement.cell(tails.get('htsim_uec'))} | {agreement.cell(tails.get('trimswitch'))} | "
              f"{' / '.join(finished)} | {' / '.join(costs)} | {verdict} | {missing} |")


if __name__ == "__main__":
    sys.exit(main())

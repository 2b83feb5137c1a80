"""The trials a host-level benchmark gathered: one line a trial, its mode then its figures (bench/hosts/common.sh)."""
import statistics


def load(path):
    """Each mode's trials, in the order the modes first ran: {mode: [[figure, ...], ...]}."""
    rows = {}
    for line in open(path):
        mode, *values = line.split()
        rows.setdefault(mode, []).append(values)
    return rows


def median(rows, mode, column):
    return statistics.median(float(row[column]) for row in rows[mode])
